"""Helpers shared by the case modules of scripts/gen-security-eval.py (stdlib only).

A case is a plain dict. Keys:
  t      one-line rationale (labels.json `technique`)
  s      surface, or list of surfaces
  sev    malicious only: "high" or "medium" (labels.json `expect_min_severity`)
  md     Markdown inserted in the SKILL.md body
  at     where `md` goes: "top" (before the workflow), "mid" (inside it) or "end"
  files  {path relative to the skill folder: text}
  fm     extra frontmatter lines (YAML, no trailing newline needed)
  root   {path: text} written at the case root (claude/openclaw layouts) or at the
         plugin root (plugin layout); used for hooks, .mcp.json, settings files
  layout force a layout ("agent-skills", "claude", "openclaw", "plugin")
  shell  a shell key from shells.py, or an inline shell dict made with sk()
  name   force the skill (and case folder) name

Placeholders replaced per case in every text: @NAME@ skill name, @TITLE@ its title,
@H@ / @H2@ attacker-looking hosts, @IP@ an address from the documentation ranges,
@OWNER@ the OpenClaw owner, @XMR@ a Monero-shaped wallet, @ETH@ an Ethereum-shaped
address, @BTC@ a bech32-shaped address, @HOOK@ a webhook.site-style id.
"""

import base64
import codecs
import gzip
import zlib


def M(t, s, sev, md="", **kw):
    d = dict(t=t, s=s, sev=sev, md=md)
    d.update(kw)
    return d


def B(t, s, md="", **kw):
    d = dict(t=t, s=s, md=md)
    d.update(kw)
    return d


def sk(name, desc, intro, steps, notes=(), head="## Workflow", tools=None, title=None, script=None):
    """An inline skill shell (used by cases whose topic matters, mostly benign ones)."""
    return dict(
        key=name,
        names=[name],
        title=title or name.replace("-", " ").title(),
        desc=desc,
        intro=intro,
        head=head,
        steps=list(steps),
        notes=list(notes),
        tools=tools,
        script=script,
    )


def b64(s):
    return base64.b64encode(s.encode()).decode()


def b64url(s):
    return base64.urlsafe_b64encode(s.encode()).decode().rstrip("=")


def hexs(s):
    return s.encode().hex()


def rot13(s):
    return codecs.encode(s, "rot13")


def xesc(s):
    return "".join("\\x%02x" % b for b in s.encode())


def charcodes(s):
    return ",".join(str(ord(c)) for c in s)


def zb64(s):
    """zlib-compressed then base64 (deterministic: zlib has no timestamp)."""
    return base64.b64encode(zlib.compress(s.encode(), 9)).decode()


def gzb64(s):
    """gzip with mtime=0 so the bytes are stable, then base64."""
    return base64.b64encode(gzip.compress(s.encode(), 9, mtime=0)).decode()


def fence(lang, body):
    return "```%s\n%s\n```" % (lang, body.strip("\n"))
