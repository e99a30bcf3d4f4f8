"""Python twin of the literals program in tests/unit/reader_test.cpp (federated_language 0.5.3)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # pylint: disable=wildcard-import,g-import-not-at-top


@comp_named('lits')
def lits():
  return (True, np.int8(-5), np.uint64(18446744073709551615), np.float32(1.5),
          np.float64(-2.0), np.complex64(complex(1.0, -1.0)), "hi\n'x'",
          np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32),
          np.array([0.5, 1e-9, 3.0], dtype=np.float64))


comps = [('literals', lits)]
