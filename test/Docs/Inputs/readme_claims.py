"""README's checkable claims: every repository path it names exists, and every
command-line option it names (`--name`) is in the --help of a tool, a compiled
program or a script it documents.

  readme_claims.py ROOT BIN PROGRAM
"""
import os
import re
import subprocess
import sys

root, bindir, program = sys.argv[1:4]
text = open(os.path.join(root, "README.md")).read()
failed = []

TOP = ("scripts/", "docs/", "test/", "bench/", "examples/", "lib/", "include/", "tools/",
       "unittests/", "cmake/", ".ci/")
paths = set()
blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)  # commands shown in code blocks
for span in (re.findall(r"`([^`\s]+)`", text) + re.findall(r"\]\(([^)\s]+)\)", text) +
             [w for b in blocks for w in b.split()]):
    for word in re.split(r"[\s,;]+", span):
        word = word.split(":")[0].rstrip(".,)")
        if word.startswith(TOP) and not re.search(r"[<>*{}$]|\.\.\.", word):
            paths.add(word)
for p in sorted(paths):
    if not os.path.exists(os.path.join(root, p)):
        failed.append(f"README names {p}, which does not exist")

helps = []
tools = ["tcc", "tc-opt", "tc-translate", "tc-calibrate"]
for t in tools:
    r = subprocess.run([os.path.join(bindir, t), "--help"], capture_output=True, text=True)
    helps.append(r.stdout + r.stderr)
r = subprocess.run([program, "--help"], capture_output=True, text=True)
helps.append(r.stdout + r.stderr)
scripts = os.path.join(root, "scripts")
for s in sorted(os.listdir(scripts)):
    path = os.path.join(scripts, s)
    if s.endswith(".py") and not s.startswith(("tc_", "tce_")):
        r = subprocess.run([sys.executable, path, "--help"], capture_output=True, text=True)
        helps.append(r.stdout + r.stderr)
    elif s.endswith(".sh"):
        helps.append(open(path).read())  # shell scripts document their flags in their text
every = "\n".join(helps)
options = sorted(set(re.findall(r"(?<![\w-])--([a-z][a-z0-9-]+)", text)))
# Options of other programs the README shows (cmake --install --prefix).
EXTERNAL = {"install", "prefix"}
for option in options:
    if option not in EXTERNAL and not re.search(r"(?<![\w-])--" + re.escape(option) + r"\b", every):
        failed.append(f"README names --{option}, which no tool's --help lists")

for f in failed:
    print("FAIL: " + f)
print(f"{len(paths)} paths, {len(options)} options checked, {len(failed)} wrong")
sys.exit(1 if failed else 0)
