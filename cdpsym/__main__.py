import sys

from cdpsym.cli import main

sys.exit(main())
