#!/usr/bin/env python3
"""Refreshes the `<!-- help: symgen ... -->` blocks in README.md from the built binary.

tests/readme.rs fails when a block is stale; run `cargo build` and then this script.
"""
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, "target", "debug", "symgen")
env = dict(os.environ, NO_COLOR="1", COLUMNS="100")


def help_text(command):
    args = command.split()[1:] + ["--help"]
    out = subprocess.run([binary, *args], capture_output=True, text=True, env=env, check=True)
    return out.stdout.rstrip()


path = os.path.join(root, "README.md")
text = open(path, encoding="utf-8").read()
pattern = re.compile(r"(<!-- help: (symgen[^>]*?) -->\n```text\n)(.*?)(\n```)", re.S)
text, count = pattern.subn(lambda m: m.group(1) + help_text(m.group(2)) + m.group(4), text)
open(path, "w", encoding="utf-8").write(text)
print(f"refreshed {count} help block(s)", file=sys.stderr)
