"""One vocabulary for every reader of step text.

How a number is written and which words change the reading of a statement ("suppose", "when",
"check", "not", "about", "remainder", "cm", "$") would otherwise be spelled out in each check, and
the copies would drift apart. They live here once; checks compose the groups they need with `words`.

Number shapes are regex *fragments* without boundaries: each caller adds the lookarounds its own
reading needs (a number inside a word, after a decimal point, ...). Word groups are tuples of regex
alternatives: English stems carry their own `\\b`, Chinese words none (no spaces between words).
"""

from __future__ import annotations

import re
from functools import lru_cache

from scoring.parse.lexicon.latex import NAME_START, fraction

# --- numbers ---------------------------------------------------------------------------------

DIGITS = r"\d+"
DECIMAL = r"\d+(?:\.\d+)?"  # 12, 12.5
SIGNED_DECIMAL = r"-?" + DECIMAL
GROUPED = r"\d{1,3}(?:,\d{3})+(?![\d,])(?:\.\d+)?"  # 1,234,567.5 (not 1,2345)
# Digits with commas anywhere among them, as prose may group a number loosely (1,000, 10,00);
# `GROUPED` is the strict reading.
LOOSE_GROUPED = r"\d[\d,]*(?:\.\d+)?"
FRACTION = r"\d+\s*/\s*\d+"  # 3/4 written inline
RATIONAL = (
    SIGNED_DECIMAL + r"(?:/\d+)?"
)  # a value as `scoring.parse.numeric.format_value` writes it
# 1.5e-3, 1.5E3, 3.2 \times 10^{-4}, 3.2×10^-4, 3.2*10^5
SCIENTIFIC = (
    DECIMAL + r"(?:[eE][-+]?\d+|\s*(?:\\times|\\cdot|×|\*|·)\s*10\s*\^\s*\{?\s*[-+−]?\s*\d+\s*\}?)"
)
ELLIPSIS = r"\.\.\.|\\[lc]?dots|…"
# A number written in digits, with its decimal part (`DECIMAL`), found anywhere.
NUMBER = re.compile(DECIMAL)
# One digit anywhere: whether a text holds a number written in digits at all.
DIGIT = re.compile(r"\d")

# A thousands separator: `1,000`, `1{,}000` (LaTeX). Commas between other numbers (`1, 2, 3`) are
# lists and stay.
THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?(?![\d,]|\{,\})")


def without_thousands_separators(text: str) -> str:
    """`1,000` and `1{,}000` -> `1000`; commas between other numbers (`1, 2, 3`) stay."""
    return THOUSANDS.sub(lambda m: m.group().replace("{,}", "").replace(",", ""), text)


# `√50`, `5√2`, `√(25 × 2)`, `∛8`: a root sign before its radicand, as typed without LaTeX
_ROOT_SIGN = re.compile(r"([√∛∜])\s*(\d+(?:\.\d+)?|[A-Za-z](?![A-Za-z])|\(([^()]*)\)|\{([^{}]*)\})")
_ROOT_INDEX = {"√": "", "∛": "[3]", "∜": "[4]"}


def latex_roots(text: str) -> str:
    """Root signs as LaTeX: `5√2` is `5\\sqrt{2}`, `√(25 × 2)` is `\\sqrt{25 × 2}`, `∛8` is
    `\\sqrt[3]{8}`. LaTeX and the arithmetic reader take the sign for a stray character."""
    if not any(sign in text for sign in _ROOT_INDEX):
        return text
    return _ROOT_SIGN.sub(
        lambda m: (
            "\\sqrt"
            + _ROOT_INDEX[m.group(1)]
            + "{"
            + next(g for g in (m.group(3), m.group(4), m.group(2)) if g is not None)
            + "}"
        ),
        text,
    )


# `2½`, `¾`: a fraction typed as one character, written out (`2 1/2`, a mixed number)
_VULGAR = {
    "½": "1/2",
    "⅓": "1/3",
    "⅔": "2/3",
    "¼": "1/4",
    "¾": "3/4",
    "⅕": "1/5",
    "⅖": "2/5",
    "⅗": "3/5",
    "⅘": "4/5",
    "⅙": "1/6",
    "⅚": "5/6",
    "⅛": "1/8",
    "⅜": "3/8",
    "⅝": "5/8",
    "⅞": "7/8",
}
VULGAR_FRACTIONS = "".join(_VULGAR)
_VULGAR_FRACTION = re.compile(r"(\d)?(\s*)([" + VULGAR_FRACTIONS + r"])")


def plain_fractions(text: str) -> str:
    """Fraction characters as digits: `2½` is the mixed number `2 1/2`, `¾` is `3/4`."""
    if not any(ch in text for ch in _VULGAR):
        return text
    return _VULGAR_FRACTION.sub(
        lambda m: (m.group(1) + " " if m.group(1) else m.group(2)) + _VULGAR[m.group(3)], text
    )


# `2 1/2`, `2\frac{1}{2}`: a whole number written just before a proper fraction of digits is their
# sum, as school arithmetic writes a mixed number. Not after a letter, digit, point, slash,
# backslash or index sign (`x^2\frac{1}{2}` is a product), nor before more of a term.
_MIXED_NUMBER = re.compile(
    r"(?<![\w.,/\\^_])(\d+)"
    r"(?: +(\d+)/(\d+)|\s*" + fraction(r"(\d+)", r"(\d+)") + ")"
    r"(?![\w./^{(])"
)


def mixed_numbers(text: str) -> str:
    """Mixed numbers as sums: `2 1/2` is `(2+1/2)`; an improper fraction (`2 5/3`) is not a
    mixed number and is left as written."""

    def whole_and_part(m: re.Match[str]) -> str:
        num, den = m.group(2) or m.group(4), m.group(3) or m.group(5)
        if not 0 < int(num) < int(den):
            return m.group(0)
        return f"({m.group(1)}+{num}/{den})"

    return _MIXED_NUMBER.sub(whole_and_part, text)


# `四分之三`, `百分之二十`, `3分之2`: Chinese writes a fraction as "the denominator's parts, of
# which" the numerator; both may be Chinese numerals or digits.
_CJK_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CJK_PLACES = {"十": 10, "百": 100, "千": 1000}
_CJK_NUMBER = "[零〇一二两三四五六七八九十百千]+"
_CJK_FRACTION = re.compile(
    r"(\d+|" + _CJK_NUMBER + r")\s*分之\s*(\d+|" + _CJK_NUMBER + r")"
    r"(?![克米瓦焦])"
)  # 四分之三千克: 3/4 of a kilogram


def cjk_integer(text: str) -> int | None:
    """A whole number written in Chinese numerals below 10,000 (`十二`, `二十`, `一百零五`, `两千`);
    None when `text` is not one."""
    total, digit, seen = 0, None, False
    for ch in text:
        if ch in _CJK_DIGITS:
            if digit is not None and _CJK_DIGITS[ch] != 0:
                return None  # two digits in a row (`二三`) is no number
            digit = _CJK_DIGITS[ch] or None
            seen = True
        elif ch in _CJK_PLACES:
            total += (1 if digit is None and not total else digit or 0) * _CJK_PLACES[ch]
            digit, seen = None, True
        else:
            return None
    return total + (digit or 0) if seen else None


def chinese_fractions(text: str) -> str:
    """`四分之三` as `3/4`, `百分之二十` as `20/100`: the part after 分之 is the numerator. A
    numeral this cannot read is left as written."""
    if "分之" not in text:
        return text

    def as_digits(m: re.Match[str]) -> str:
        den, num = (int(g) if g.isdigit() else cjk_integer(g) for g in m.groups())
        return m.group(0) if den is None or num is None or den == 0 else f"{num}/{den}"

    return _CJK_FRACTION.sub(as_digits, text)


# `10时15分`, `8点30分`, `9点半`: a clock time in Chinese (not `1小时45分`, a duration).
_CJK_CLOCK = re.compile(r"(?<![\d.])(\d{1,2})\s*[时点]\s*(?:(\d{1,2})\s*分(?![之钟])|(半))")


def chinese_clock_times(text: str) -> str:
    """Chinese clock times as `H:MM` (`10时15分` is 10:15, `9点半` 9:30), the way the answer
    readings compare clock times."""
    if "时" not in text and "点" not in text:
        return text
    return _CJK_CLOCK.sub(
        lambda m: f"{m.group(1)}:{30 if m.group(3) else int(m.group(2)):02d}", text
    )


# --- words that change how a statement is read ------------------------------------------------

# The writer supposes something rather than asserting it.
SUPPOSE_WORDS = (r"\bsuppos", r"\bassum", "假设", "假定")
# The writer tries a candidate.
TRIAL_WORDS = (r"\bif\b", r"\btry", r"\bguess", r"\bsay\b", "若", "如果", "试")
HEDGE_WORDS = SUPPOSE_WORDS + TRIAL_WORDS
# One case among several is being considered.
CASE_WORDS = (r"\bwhen\b", r"\bcase", r"\bfor\s+\$?[a-z]\s*=", "当", "情况")
ALTERNATIVE_WORDS = (r"\bor\b", "或")
# A part of a multi-part problem: variables may be reused with other values.
PART_WORDS = (r"\bpart\b", r"\(\s*[a-d]\s*\)")
# The writer checks, verifies or tests a claim (a relation here may be shown to fail).
CHECK_WORDS = (
    r"\bcheck",
    r"\bverif",
    r"\bconfirm",
    r"\btest",
    r"\bplug",
    r"\bsanity",
    "检验",
    "验证",
)
# Putting values into an expression: a computation as often as a check.
SUBSTITUTE_WORDS = (r"\bsubstitut", r"\bplug", "代入")
# The step rejects what it writes.
NEGATION_WORDS = (
    r"\bnot\b",
    r"n't\b",
    r"\bfalse\b",
    r"\bwrong\b",
    r"\bincorrect\b",
    r"contradict",
    r"impossible",
    r"\bnever\b",
    r"\bfails?\b",
    "不",
    "矛盾",
    "错",
)
# The writer corrects an earlier statement.
CORRECTION_WORDS = (r"\bwrong", r"\bmistake", r"\bactually", r"\binstead", r"\bwait", "错")
# A step that only explores: what it writes is not a value the solution settles on.
TENTATIVE_WORDS = (
    HEDGE_WORDS
    + CASE_WORDS
    + ALTERNATIVE_WORDS
    + NEGATION_WORDS
    + CHECK_WORDS
    + SUBSTITUTE_WORDS
    + CORRECTION_WORDS
    + PART_WORDS
)
# A value is rounded or estimated, not exact. Words with other senses only count next to a
# number: "about 3.3" (not "think about"), "3 左右" (not 左右两边 "both sides"); 约 not in 约分
# (reduce a fraction), 约数 (divisor), 约去/约掉 (cancel), 约束 (constraint).
APPROXIMATION_WORDS = (
    r"\bapprox",
    r"\b(?:about|roughly|around|nearly|almost)\s+\$?-?\d",
    r"\bround(?:ed|ing)\b",
    r"\bround(?:s)?\s+(?:to|up|down|off)\b",
    r"\bto\s+the\s+nearest\b",
    r"\bdecimal\s+places?\b",
    r"\bsignificant\s+(?:figures?|digits?)\b",
    r"\bs\.\s?f\.",
    r"\bestimat",
    r"约(?![分数去掉束定])",
    "近似",
    "四舍五入",
    r"保留.{0,4}(?:位|小数)",
    "精确到",
    r"\d\s*左右",
    "≈",
    r"\\approx",
    r"\\simeq",
    "有效数字",
)
# 余 alone would also find 余弦 (cosine) and 余角 (complementary angle).
REMAINDER_WORDS = (
    r"\bremainder",
    r"\bmod\b",
    r"\\[bp]?mod\b",
    "余数",
    "余下",
    r"余\s*\d",
    "剩余",
    "整除",
)
# Whole items are counted: a quotient is rounded to a whole number of them.
COUNTING_WORDS = (
    r"\bremainder",
    r"\bleft\s*over",
    r"\bremain",
    r"\bwhole\b",
    r"\bcomplete\b",
    r"\bfull\b",
    r"\bat\s+most\b",
    r"\bat\s+least\b",
    r"\bmaximum\b",
    r"\bminimum\b",
    r"\bhow\s+many\b",
    r"\bfloor\b",
    r"\bceil",
    r"\binteger\s+(?:part|division)",
    r"\bquotient",
    "剩",
    "最多",
    "至多",
    "至少",
    "最少",
    "取整",
    "整数部分",
) + REMAINDER_WORDS
# Counting where a partial container still counts as one: the quotient is rounded up.
ROUND_UP_WORDS = (
    r"\bat\s+least\b",
    r"\bminimum\b",
    r"\bneed",
    r"\brequire",
    r"\bround(?:ed)?\s+up\b",
    r"\bceil",
    "至少",
    "最少",
    "需要",
    "进一",
)
# A number written in another base.
BASE_WORDS = (
    r"\bbase[-\s]*\d+",
    r"\bbinary\b",
    r"\boctal\b",
    r"\bhexadecimal\b",
    r"\bradix\b",
    r"进制",
    r"\\text\{?\s*base",
)
# Words that draw a consequence: they join two statements, and alone they lead into the next step.
CONSEQUENCE_WORDS = (
    "so",
    "then",
    "thus",
    "hence",
    "therefore",
    "所以",
    "因此",
    "则",
    "即",
    "得",
    "故",
)
# Words that join statements: `x = 1 \text{ or } x = 2` is two statements, and the `\text{...}`
# is no unit of the number before it.
CONNECTIVE_WORDS = CONSEQUENCE_WORDS + (
    "or",
    "and",
    "where",
    "with",
    "for",
    "when",
    "if",
    "since",
    "because",
    "but",
    "i.e.",
    "or equivalently",
    "或",
    "或者",
    "和",
    "且",
    "及",
    "以及",
)
# A unit of nothing but one of these (and a comma or colon) says nothing alone: it leads into the
# step after it. Regex alternatives, unlike the literal connectives.
LEAD_WORDS = CONSEQUENCE_WORDS + (
    "now",
    "next",
    "finally",
    "first(?:ly)?",
    "second(?:ly)?",
    "this gives",
    "于是",
    "那么",
    "然后",
    "接着",
    "首先",
    "其次",
    "最后",
    "这样",
    "综上所?述?",
    "由此可?得",
    "可得",
)
CONNECTIVE = "|".join(re.escape(w) for w in CONNECTIVE_WORDS)
# Definitions of a name ("let π be the profit").
DEFINING_WORDS = (
    r"\blet\b",
    r"\bdenote",
    r"\bdefine",
    r"\bcall\b",
    r"\brepresent",
    r"\bstand\s+for\b",
    "设",
    "记",
    "令",
    "表示",
)


@lru_cache(maxsize=64)
def words(*groups: tuple[str, ...]) -> re.Pattern[str]:
    """One case-insensitive pattern that finds any word of the given groups."""
    return re.compile("|".join(w for group in groups for w in group), re.IGNORECASE)


# --- scripts and numerals ---------------------------------------------------------------------

# CJK ideographs (extension A, the unified block, compatibility ideographs), the body of a
# character class: `f"[{CJK}]"`. One range for every reader, so "is this Chinese" has one answer.
CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# One CJK ideograph.
CJK_CHAR = re.compile(f"[{CJK}]")


@lru_cache(maxsize=8)
def latin_words(min_letters: int) -> re.Pattern[str]:
    """Runs of at least `min_letters` Latin letters that are no LaTeX command's name (`\\frac`):
    prose words, where math writes single letters (`x`, `ab` as a product)."""
    return re.compile(NAME_START + rf"[A-Za-z]{{{min_letters},}}")


# --- symbols ------------------------------------------------------------------------------------

# LaTeX commands that hold plain text (`\text{ cm}`, `\mbox{or}`), without their braces.
TEXT_COMMAND = r"\\(?:text|mathrm|textrm|mbox)"

# π typed as plain text: the word `pi` alone, not inside a word (`pin`) or a command (`\pi`)
PLAIN_PI = NAME_START + r"pi(?![A-Za-z])"
PI = r"(?:\\pi(?![A-Za-z])|π|" + PLAIN_PI + ")"
# A percent sign, escaped as LaTeX writes it (`\%`) or not.
PERCENT_SIGN = r"\\?%"
DEGREE_MARK = r"(?:\^\s*\{?\s*\\circ\s*\}?|°)"  # 60^\circ, 60^{\circ}, 60°
# A `$` that delimits math, not an escaped dollar sign `\$`.
UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")


# --- units and currencies ---------------------------------------------------------------------


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


UNIT_WORDS = frozenset(
    _split(
        "cm mm km kg mg ml cm2 m2 km2 dollars dollar cents cent hours hour hrs hr minutes minute mins "
        "min seconds second sec secs days day weeks week years year months month inches inch feet foot "
        "ft miles mile mph kph meters meter metres metre liters liter litres litre grams gram "
        "kilograms kilogram pounds pound lbs lb oz units unit degrees degree sq yards yard gallons "
        "gallon quarts quart pints pint ounces ounce tons ton tonnes tonne acres acre hectares hectare "
        "euros euro yuan joules joule watts watt volts volt"
    )
)
# Longest first, so the alternation prefers 平方厘米 over 厘米 over 米.
CJK_UNITS = tuple(
    sorted(
        _split(
            "平方厘米 平方分米 平方米 平方千米 平方公里 立方厘米 立方分米 立方米 厘米 毫米 分米 千米 公里 英里 "
            "英尺 英寸 加仑 千克 公斤 公吨 毫克 毫升 小时 分钟 公顷 焦耳 千焦 兆焦 千瓦 "
            "元 米 克 吨 升 磅 亩 个 只 本 人 天 秒 岁 张 块 次 种 页 辆 棵 件 条 角 度 倍 分 周 年 月 日 瓶 箱 盒 份"
        ),
        key=len,
        reverse=True,
    )
)
CJK_UNIT = "|".join(CJK_UNITS)
# Measure words that count whole items: a quantity in them is a whole number.
COUNT_UNITS = frozenset(_split("个 只 本 人 张 块 次 辆 棵 件 条 瓶 箱 盒 份 页 种 岁 天"))
# Signs written before an amount. `$` is also TeX's math delimiter (see `scoring.parse.mathspans`).
CURRENCY_SIGNS = "$¥￥€£₹"


# Units of an amount of time (in seconds) or money (in cents) that an answer may be given in
# (`scoring.answer.readings.measures`); `分` is either, by the units beside it.
SECONDS_OF = {
    "小时": 3600,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "分钟": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "秒": 1,
    "秒钟": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    "天": 86400,
    "day": 86400,
    "days": 86400,
    "week": 604800,
    "weeks": 604800,
}
CENTS_OF = {
    "元": 100,
    "块": 100,
    "角": 10,
    "毛": 10,
    "dollar": 100,
    "dollars": 100,
    "cent": 1,
    "cents": 1,
    "¢": 1,
}
AMOUNT_UNITS = "|".join(
    re.escape(u) for u in sorted({*SECONDS_OF, *CENTS_OF, "分"}, key=len, reverse=True)
)


# --- Answers: the words and signs of final answers, shared by the answer readers and segmenter ---

# The word "answer" in the two languages of the step suites ("Answer:", "答案：").
ANSWER_WORDS = ("answer", "答案")
# The same word in the other languages of the public answer suites, and 答 ("reply") alone.
# `scoring.steps.segment` does not cut steps at them: only the answer readers look for them.
OTHER_ANSWER_WORDS = ("réponse", "respuesta", "antwort", "答")
FINAL_ANSWER_WORDS = ("final answer", "最终答案")
# Verdict words an answer to a yes/no question is (synonyms share a polarity).
YES_WORDS = (
    "yes",
    "true",
    "correct",
    "是",
    "是的",
    "对",
    "正确",
    "成立",
    "存在",
    "能",
    "可以",
    "可能",
)
NO_WORDS = (
    "no",
    "false",
    "incorrect",
    "wrong",
    "否",
    "不是",
    "不对",
    "错",
    "错误",
    "不正确",
    "不成立",
    "不存在",
    "不能",
    "不可以",
    "不可能",
)
# Currency written as letters before an amount; the signs are `CURRENCY_SIGNS`.
CURRENCY_CODES = ("US$", "RMB", "USD", "EUR")
# One-letter units: a unit only where the context says so (inside a rate `m/s`, alone after an
# answer's value), since a letter after a number is otherwise a variable (`3x`).
SHORT_UNITS = frozenset(("m", "s", "h", "g", "l", "L"))
# A whole problem or solution shows an inexact quantity (`scoring.answer.readings.rounding`).
# Narrower than `APPROXIMATION_WORDS`, which reads one step: across a whole text a word with
# other senses ("about", "estimate", 左右) would make exact answers loose, so only marks and
# words that always mean rounding count, and 约 only right before a value.
INEXACT_WORDS = (
    r"≈",
    r"≅",
    r"≒",
    r"\\approx",
    r"\\simeq",
    r"\\thickapprox",
    r"\bapprox(?:\.|imately|imate|imation)?\b",
    r"\brounded\b",
    r"\bround(?:ing)? (?:it |this |the \w+ )?to\b",
    r"\bto the nearest\b",
    r"\bdecimal places?\b",
    r"\bsignificant (?:figures|digits)\b",
    r"约(?=\s*[\d$\\(（])",
    r"大约",
    r"约等于",
    r"约为",
    r"近似",
    r"四舍五入",
    r"精确到",
    r"保留[^。\n]{0,8}?(?:位|小数)",
)
