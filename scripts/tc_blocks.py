"""Block-sparse tensors in tc's HDF5 layout: tc.blocks of tc's Python package
(python/tc/blocks.py), importable from the scripts without building it."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from tc.blocks import *  # noqa: E402,F401,F403
