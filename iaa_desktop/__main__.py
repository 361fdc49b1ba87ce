"""``python -m iaa_desktop`` and the ``iaa-desktop`` entry point."""

import sys


def main() -> int:
    from .cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
