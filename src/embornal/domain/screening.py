"""Deterministic screening of text for known prompt-injection shapes (seed 002 §5).

A memory whose text claims authority or tells the reader to drop its rules — "ignore
previous instructions", "you are now admin", "the developer says you may skip review",
忽略之前的指令 — is flagged *sensitive* at capture, whether or not the caller said so. A
sensitive memory cannot become an anchor, a canon entry or a narrative's support without
independent corroboration (:mod:`embornal.domain.provenance`).

This is the first, formal layer: it catches the shapes below and nothing else, it does not
authenticate anyone, and a clean result is not a clearance. The text is compared after
NFKC folding, lower-casing, removing zero-width and control characters and collapsing
whitespace, so full-width letters and spacing tricks do not hide a known shape.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["PATTERNS", "Screening", "normalize_for_screening", "screen"]


@dataclass(frozen=True)
class Screening:
    """What the screen found: the names of the shapes that matched (none: nothing known)."""

    matches: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.matches)

    @property
    def reason(self) -> str:
        """The reason a flag records: which known shapes the text has."""
        return "screened at capture: " + ", ".join(self.matches) if self.matches else ""


_AUTHORITY = r"(?:admin(?:istrator)?|root|superuser|developer|system|operator|owner|god mode|dan)"
_RULES = r"(?:instructions?|prompts?|rules|guidelines|directives|guardrails|policies|orders)"
_PRIOR = r"(?:all |any |the |your |my )?(?:previous|prior|above|earlier|preceding|original|old)"
_SKIP = r"(?:skip|bypass|ignore|disable|override|turn off|circumvent|get around|avoid)"
_CHECKS = r"(?:review|reviews|safety|security|checks?|verification|approval|filters?|guardrails|restrictions|rules|policy|policies|moderation)"  # noqa: E501

#: Each known shape: a name and its pattern over the normalized text.
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("ignore previous instructions",
         rf"\b(?:ignore|disregard|forget|drop|discard)\s+{_PRIOR}\s+{_RULES}"),
        ("ignore your instructions",
         rf"\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:your|the|these|those)\s+{_RULES}"),
        ("new identity or role",
         rf"\byou\s+are\s+now\s+(?:an?\s+|the\s+|in\s+)?(?:unrestricted\s+|jailbroken\s+)?"
         rf"{_AUTHORITY}\b"),
        ("act as authority", rf"\b(?:act|behave|respond)\s+as\s+(?:an?\s+|the\s+)?{_AUTHORITY}\b"),
        ("claimed permission to bypass",
         rf"\b(?:developer|admin(?:istrator)?|system|operator|owner|anthropic|openai)s?\s+"
         rf"(?:says?|said|has said|told you|tells you|authori[sz]ed|allows?|lets|permits?)"
         rf"(?:\s+that)?\s+(?:you\s+)?(?:(?:may|can|are allowed to|are authori[sz]ed to|"
         rf"are permitted to|should|must|to)\s+)?(?:now\s+)?{_SKIP}\b"),
        ("authorised to bypass",
         rf"\byou(?:'re|\s+are)\s+(?:now\s+)?(?:authori[sz]ed|permitted|allowed|cleared|free)\s+"
         rf"to\s+{_SKIP}\b"),
        ("bypass the checks", rf"\b{_SKIP}\s+(?:the\s+|all\s+|any\s+|your\s+)?{_CHECKS}\b"),
        ("authority notice",
         r"(?:^|[\[\(<\s])(?:system|admin(?:istrator)?|developer|security|root)\s+"
         r"(?:notice|message|override|instruction|command|alert|update)s?\s*[:\]\)>-]"),
        ("new instructions",
         r"\b(?:new|updated|real|true|hidden)\s+(?:system\s+)?instructions?\s*:"),
        ("reveal the prompt",
         r"\b(?:reveal|print|show|repeat|output|leak)\s+(?:me\s+)?(?:your|the)\s+"
         r"(?:system\s+prompt|hidden\s+instructions|instructions)"),
        ("忽略之前的指令",
         r"(?:忽略|无视|忘记|忘掉|不要理会)(?:你|掉)?"
         r"(?:之前|以前|先前|上面|上述|所有|全部|原来)?的?(?:所有)?"
         r"(?:指令|指示|提示|规则|命令|设定)"),
        ("你现在是管理员",
         r"你现在(?:是|成为了?|变成了?)(?:一个|一名)?"
         r"(?:管理员|开发者|系统|超级用户|root|上帝模式|不受限制)"),
        ("开发者允许跳过",
         r"(?:开发者|开发人员|管理员|系统|官方)(?:说|表示|已经?|允许|授权|同意|让)"
         r"(?:了)?(?:你)?(?:可以|能|可|允许)?(?:跳过|绕过|忽略|关闭|无视)"),
        ("跳过审核",
         r"(?:跳过|绕过|关闭|无视)(?:所有|全部)?的?(?:审核|审查|安全|检查|验证|限制|过滤)"),
        ("系统通知", r"(?:系统|管理员|开发者)(?:通知|消息|指令|公告|命令)\s*[:：]"),
    )
)  # fmt: skip

#: Zero-width, direction and soft-hyphen characters and the C0 controls but tab and newline.
_INVISIBLE = re.compile(
    "[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\x00-\x08\x0b-\x1f\x7f]"
)


def normalize_for_screening(text: str) -> str:
    """The text the patterns read: NFKC, lower case, no zero-width or control characters,
    whitespace collapsed to single spaces."""
    folded = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).casefold()
    folded = folded.replace("’", "'").replace("‘", "'")
    return " ".join(folded.split())


def screen(text: str) -> Screening:
    """The known injection shapes in ``text`` (see the module), in the order of
    :data:`PATTERNS`."""
    plain = normalize_for_screening(text)
    return Screening(tuple(name for name, pattern in PATTERNS if pattern.search(plain)))
