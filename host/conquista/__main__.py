import sys

from conquista.cli import main

sys.exit(main())
