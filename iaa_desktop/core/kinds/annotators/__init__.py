"""Annotators, human and model, in any kind whose units reduce to item × annotator × label.

What the kinds share about their annotators lives here, below them (the kinds stay independent
of one another): the model annotators' figures (:mod:`.models`) and the planning curve
(:mod:`.planning`), both computed from a matrix of category codes with the metrics' own tally.
"""
