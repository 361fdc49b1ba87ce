"""Entry point of the frozen application: the same commands as the installed ``iaa-desktop``."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # worker processes re-enter here in a frozen program
    from iaa_desktop.__main__ import main

    sys.exit(main())
