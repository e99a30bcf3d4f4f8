#!/bin/sh
# Rebuilds the local reference environment for TFF's DistributeAggregateForm conversion at
# $DEST (default /work/pyref-tff), outside this repository:
#   - TFF's sources (tensorflow_federated/), extracted unmodified from the bare git mirror at
#     $MIRROR (default /work/.mirror/google-parfait+tensorflow-federated/repo), commit $COMMIT
#     (default the one the goldens were made with);
#   - the stand-ins of reference_env/ (a tensorflow package, tff_reference.py).
# federated_language 0.5.3 itself comes from /work/pyref/site (see tests/goldens/README.md).
# Use:  sh tests/forms/python/setup_reference.sh
#       PYTHONPATH=/work/pyref-tff:/work/pyref/site /usr/bin/python3 tests/forms/python/make_goldens.py
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DEST=${DEST:-/work/pyref-tff}
MIRROR=${MIRROR:-/work/.mirror/google-parfait+tensorflow-federated/repo}
COMMIT=${COMMIT:-63f73da486b2a98e1de1538b4d22834eaaea19ab}

rm -rf "$DEST/tensorflow_federated" "$DEST/tensorflow" "$DEST/tff_reference.py"
mkdir -p "$DEST"
git --git-dir="$MIRROR" archive "$COMMIT" tensorflow_federated | tar -x -C "$DEST"
cp -R "$HERE/reference_env/tensorflow" "$DEST/tensorflow"
cp "$HERE/reference_env/tff_reference.py" "$DEST/tff_reference.py"
echo "$COMMIT" > "$DEST/TFF_COMMIT"
cd / && PYTHONPATH="$DEST:/work/pyref/site" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -c \
  'import tff_reference; print("tff_reference: form_utils imported from", tff_reference.form_utils.__file__)'
