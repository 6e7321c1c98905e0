"""hand_over_bytes.py REPORT: every rank's bytes sent handing intermediates on."""
import json
import sys

print("hand-over sent", [r["hand_over"]["bytes_sent"] for r in json.load(open(sys.argv[1]))["ranks"]])
