# Sourced by the test scripts: creates the Python tooling of tests/python (pydantic, jiter,
# mypy, ruff, pytest, hatchling) in a virtual environment inside the project
# (tests/python/.venv, git-ignored) from its hashed requirements, skipped when the
# environment matches them already, and sets $py_bin to its bin directory.
py_tools=tests/python
py_venv=$(pwd)/$py_tools/.venv
py_bin=$py_venv/bin
py_stamp=$py_venv/.symgen-requirements
if [ ! -x "$py_bin/python" ] || ! cmp -s "$py_tools/requirements.txt" "$py_stamp"; then
  rm -rf "$py_venv"
  python3 -m venv "$py_venv"
  "$py_bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes \
    --only-binary=:all: -r "$py_tools/requirements.txt"
  cp "$py_tools/requirements.txt" "$py_stamp"
fi
