"""Ordinary benign skills: the shells themselves (plain tasks, in the style of public skills), no look-alike.

The same shells carry the malicious cases, so these are a matched control: a malicious case differs
from its ordinary twin only by the attack.
"""

from common import B
from shells import SHELLS

EXT = {".py": "script-py", ".sh": "script-sh", ".js": "script-js", ".ps1": "script-ps1"}


def _surface(shell):
    if shell.get("script"):
        path = shell["script"][0]
        return EXT[path[path.rfind("."):]]
    return "prose"


BENIGN = [
    B("Ordinary skill (%s), no security-relevant content" % s["title"], _surface(s), shell=s["key"])
    for s in SHELLS[::2]
]
