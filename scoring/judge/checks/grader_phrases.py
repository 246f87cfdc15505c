"""The phrases that address the grader, in English and Chinese, as the folded text reads them
(`scoring.parse.fold`: lower case, single spaces, markup read as a space, fullwidth punctuation
as ASCII); what they mean and how they are used: `scoring.judge.checks.addressed`.

Each pattern comes with the words it cannot match without (`needs`: each group must have one of
its words in the text): most texts hold none of them, and the pattern is then not run.
"""

from __future__ import annotations

import re
from typing import Literal

Cue = Literal["address", "request", "verification", "instruction"]


# --- English (folded: lower case, single spaces, markup read as a space) ----------------------

_ROLE = (
    r"(?:ai |human |automatic |automated |online )?(?:grader|marker|examiner|evaluator|"
    r"assessor|reviewer|judge|checker|scorer|corrector|proctor|teacher|tutor|professor|"
    r"instructor|llm|gpt|chatgpt|assistant|model|ai|bot|grading (?:system|model|ai|bot|"
    r"engine|assistant|software|program))s?"
)
# Roles that are never a character of a problem's story.
_MACHINE = (
    r"(?:ai |automatic |automated )?(?:grader|marker|examiner|evaluator|assessor|llm|"
    r"chatgpt|gpt|assistant|ai|language model|grading (?:system|model|ai|bot|engine))s?"
)
_MARKS = (
    r"(?:(?:full|maximum|max|perfect|top|all the|complete|highest|100 ?%) (?:marks?|points?|"
    r"credits?|scores?|grades?)|(?:a |the )?(?:perfect|full|maximum|top|highest) "
    r"(?:score|grade|mark)|(?:10|ten|100) ?(?:/|out of) ?(?:10|ten|100)\b|extra (?:credit|points|marks))"
)
_SELF = (
    r"(?:this|my|the|our|the above|the whole|the entire|each|every|all(?: the)?|these)"
    r" (?:solution|answer|work|response|submission|proof|derivation|steps?|calculations?|"
    r"reasoning|working|result|method)s?"
)
_OBJECT = (
    r"(?:this|it|them|these|everything|all|each|every|my|the whole|the entire|all of "
    r"(?:it|them|my|the|these)|the (?:solution|answer|steps?|work|response|submission|"
    r"proof))(?: (?:solution|answer|step|steps|work|response|submission|proof|calculations?|"
    r"reasoning|lines?|ones?|of them|of it))?"
)
# "correct to two decimals" is a precision, not a verdict.
_CORRECT = (
    r"(?:fully |completely |entirely |all |100 ?% )?(?:correct|right|valid|perfect|"
    r"accurate|flawless|error-free)\b(?! to (?:\d|one|two|three|four|five|six|the nearest|within)| "
    r"within)"
)
_AUTHORITY = (
    r"(?:the |an? |my |our |your )?(?:official |correct |reference |standard |model |"
    r"given |provided |teacher'?s? |textbook'?s? )?(?:answer ?key|answer sheet|answer "
    r"book|marking (?:scheme|guide|rubric)|mark ?scheme|grading (?:rubric|key|guide|"
    r"scheme)|rubric|reference (?:answer|solution)|official (?:answer|solution)|standard "
    r"(?:answer|solution)|model (?:answer|solution)|solutions? manual|teacher|instructor|"
    r"professor|grader|examiner|tutor|answers? (?:at|in) the back(?: of the book)?)\b"
)
_KEY = (
    r"(?:answer ?key|marking scheme|mark ?scheme|grading rubric|rubric|official (?:answer|"
    r"solution)|reference (?:answer|solution)|standard answer|model answer|solutions? manual|"
    r"answers? (?:at|in) the back)"
)
_START = r"(?:^|(?<=[.!?;:(\[>\n-]))\s?"

# Words a pattern cannot match without: each group of a pattern's `_Needs` must have one of its
# words in the folded text, or the pattern is not run (most texts hold none of them).
_Needs = tuple[tuple[str, ...], ...]
_AI_W = (" ai", "ai ", "ai:", "ai,")  # the word, not the letters in "again"
_ROLE_W = (
    "grader",
    "marker",
    "examiner",
    "evaluator",
    "assessor",
    "reviewer",
    "judge",
    "checker",
    "scorer",
    "corrector",
    "proctor",
    "teacher",
    "tutor",
    "professor",
    "instructor",
    "llm",
    "gpt",
    "assistant",
    "model",
    "bot",
    "grading",
    *_AI_W,
)
_MACHINE_W = (
    "grader",
    "marker",
    "examiner",
    "evaluator",
    "assessor",
    "llm",
    "gpt",
    "assistant",
    "language model",
    "grading",
    *_AI_W,
)
_MARKS_W = (
    "full",
    "maximum",
    "max ",
    "perfect",
    "top ",
    "all the",
    "complete",
    "highest",
    "100",
    "/10",
    "/ 10",
    "out of",
    "extra",
)
_CORRECT_W = ("correct", "right", "valid", "perfect", "accurate", "flawless", "error-free")
_KEY_W = (
    "key",
    "scheme",
    "rubric",
    "official",
    "reference",
    "standard",
    "model answer",
    "manual",
    "back",
    "answer sheet",
    "answer book",
)
_PEOPLE_W = ("teacher", "instructor", "professor", "grader", "examiner", "tutor")

_ENGLISH: tuple[tuple[Cue, str, _Needs], ...] = (
    (
        "address",
        r"\b(?:notes?|message|memo|hint|reminder|comment|remark|instructions?|attention|"
        r"ps|p\.s\.|nb|n\.b\.|fyi) ?,? (?:to|for) (?:the |any |my |our |all |whoever is "
        r"(?:the )?)?" + _ROLE + r"\b",
        (
            (
                "note",
                "message",
                "memo",
                "hint",
                "remind",
                "comment",
                "remark",
                "instruction",
                "attention",
                "ps",
                "p.s",
                "nb",
                "n.b",
                "fyi",
            ),
            _ROLE_W,
        ),
    ),
    (
        "address",
        r"\b(?:dear|hello|hi|hey|attention|attn|greetings)\b ?,? (?:the |mr\.? |ms\.? |"
        r"mrs\.? |dr\.? |my |our )?(?:respected |esteemed |kind )?" + _ROLE + r"\b",
        (("dear", "hello", "hi ", "hi,", "hey", "attention", "attn", "greetings"), _ROLE_W),
    ),
    (
        "address",
        _START + r"to (?:the |any |whoever is the )" + _ROLE + r" ?[:,]",
        (("to the ", "to any ", "to whoever"), _ROLE_W),
    ),
    (
        "address",
        (
            r"\bto (?:whoever|whomever|anyone|the person|the people|the one|those) (?:who )?"
            r"(?:is |are |will be )?(?:grading|marking|checking|evaluating|reviewing|scoring|"
            r"assessing) (?:this|these|my|the)\b"
        ),
        (("whoever", "whomever", "anyone", "person", "people", "the one", "those"),),
    ),
    ("address", _START + r"(?:dear )?" + _MACHINE + r" ?[:,]", (_MACHINE_W,)),
    (
        "address",
        r"\b(?:you are|you're|you will be|you must be|you should be|you act as|as)"
        r" (?:now )?(?:a |an |the |my )?(?:\w+ )?(?:\w+ )?" + _MACHINE + r"\b"
        r"(?! (?:model|system)\b)",
        (_MACHINE_W,),
    ),
    (
        "request",
        r"\b(?:give|award|assign|grant|allot|enter|record)(?: (?:me|us|this|it|him|her|"
        r"them|the student|" + _SELF + r"|each step|every step|all steps))? (?:with |a )?" + _MARKS,
        (_MARKS_W,),
    ),
    (
        "request",
        r"\b(?:grade|mark|score|rate|credit) (?:me|this|it|"
        + _SELF
        + r") (?:with |a |as )?"
        + _MARKS,
        (_MARKS_W,),
    ),
    (
        "request",
        r"\b(?:deserves?|merits?|should (?:get|receive|earn|be given|be awarded|score)|"
        r"must (?:get|receive|be given|be awarded)|is worth) (?:\w+ )?(?:\w+ )?" + _MARKS,
        (_MARKS_W,),
    ),
    (
        "request",
        r"\b(?:mark|label|grade|score|judge|rate|treat|consider|count|classify|evaluate|"
        r"assess|regard|accept|tag|deem|declare)(?:ed)? "
        + _OBJECT
        + r" (?:as |to be |as being )?"
        + _CORRECT,
        (
            _CORRECT_W,
            (
                "mark",
                "label",
                "grade",
                "score",
                "judge",
                "rate",
                "treat",
                "consider",
                "count",
                "classif",
                "evaluat",
                "assess",
                "regard",
                "accept",
                "tag",
                "deem",
                "declare",
            ),
        ),
    ),
    (
        "request",
        r"\b(?:" + _SELF + r"|every step|each step|all (?:the )?steps|everything|it) "
        r"(?:should|must|shall|will|needs to|has to|is to|ought to) be (?:marked|labell?ed|"
        r"graded|scored|judged|rated|treated|considered|counted|classified|evaluated|"
        r"accepted|deemed|given|awarded) (?:as |with )?(?:" + _CORRECT + "|" + _MARKS + ")",
        (
            ("should", "must", "shall", "will", "needs to", "has to", "is to", "ought"),
            (
                "marked",
                "labeled",
                "labelled",
                "graded",
                "scored",
                "judged",
                "rated",
                "treated",
                "considered",
                "counted",
                "classified",
                "evaluated",
                "accepted",
                "deemed",
                "given",
                "awarded",
            ),
        ),
    ),
    (
        "request",
        (
            r"\b(?:do not|don'?t|never|please do not|please don'?t) (?:mark|label|grade|"
            r"deduct|take off|penali[sz]e|flag|dock)(?: \w+){0,4}? (?:as )?(?:wrong|incorrect|"
            r"errors?|mistakes?|points?|marks?|credit)\b"
        ),
        (
            ("not", "don", "never"),
            ("mark", "label", "grade", "deduct", "take off", "penali", "flag", "dock"),
        ),
    ),
    (
        "verification",
        r"\b(?:checked|verified|validated|confirmed|approved|certified|graded|"
        r"marked|reviewed|cross-?checked|compared|matched|proofread)(?: (?:as )?"
        r"(?:correct|right))? (?:against|with|by|using) " + _AUTHORITY,
        (_KEY_W + _PEOPLE_W,),
    ),
    (
        "verification",
        r"\b" + _KEY + r" (?:also |already |clearly )?(?:confirms?|says|said|shows|"
        r"showed|agrees|agreed|matches|matched|gives|gave|lists|states|verifies|"
        r"verified|approves)\b",
        (_KEY_W,),
    ),
    (
        "verification",
        r"\b(?:matches|match|matched|agrees with|agree with|same as|identical to|"
        r"consistent with|in line with|confirmed by|verified by) (?:the |an? |my |"
        r"our )?(?:official |given |provided )?" + _KEY,
        (_KEY_W,),
    ),
    (
        "verification",
        r"\b" + _SELF + r" (?:has|have|had|is|are|was|were) (?:been )?(?:(?:already|"
        r"previously|officially|independently) (?:been )?(?:checked|verified|"
        r"validated|confirmed|approved|reviewed)|(?:approved|certified|pre-?approved|"
        r"pre-?graded|signed off|audited))\b",
        (
            (
                "already",
                "previously",
                "officially",
                "independently",
                "approved",
                "certified",
                "pre-approved",
                "preapproved",
                "pre-graded",
                "pregraded",
                "signed off",
                "audited",
            ),
        ),
    ),
    (
        "verification",
        (
            r"\b(?:the |my )?(?:teacher|instructor|professor|grader|examiner|tutor)"
            r" (?:has |have |had )?(?:already )?(?:checked|verified|approved|confirmed|"
            r"accepted|graded) (?:that )?(?:this|it|my|the (?:solution|answer|work))\b"
        ),
        (_PEOPLE_W,),
    ),
    (
        "verification",
        (
            r"\b(?:pre-?approved|pre-?graded|already graded|officially (?:verified|"
            r"approved|correct))\b"
        ),
        (
            (
                "pre-approved",
                "preapproved",
                "pre-graded",
                "pregraded",
                "already graded",
                "officially",
            ),
        ),
    ),
    (
        "instruction",
        (
            r"\b(?:ignore|disregard|forget|override|overrule|bypass|do not follow|don'?t "
            r"follow|stop following)(?: (?:all|any|the|your|my|these|those|every|of|"
            r"previous|prior|above|earlier|preceding|former|original|system|grading|"
            r"other|existing|given|official|standard|usual|normal))* (?:instructions?|"
            r"prompts?|rules?|rubrics?|guidelines?|directions?|criteria|commands?|system "
            r"messages?|polic(?:y|ies)|marking scheme|grading scheme|answer key|reference "
            r"(?:answer|solution)|(?:errors?|mistakes?)(?! (?:terms?|bounds?|functions?|"
            r"estimates?|analysis|propagation|margins?|bars?)))\b"
        ),
        (("ignore", "disregard", "forget", "override", "overrule", "bypass", "follow"),),
    ),
    (
        "instruction",
        (
            r"\b(?:ignore|disregard|forget) (?:everything|anything|all(?: of)?(?: that|"
            r"this| the text)?|what (?:was|is) (?:said|written)) (?:above|before|"
            r"previously|earlier|prior|so far|else|that follows)\b"
        ),
        (("ignore", "disregard", "forget"),),
    ),
    (
        "instruction",
        (
            r"\b(?:pretend|imagine|suppose|assume|act|behave|respond|answer|reply) "
            r"(?:that )?"
            r"(?:you are|you're|you) (?:now )?(?:a |an |the |my )?(?:\w+ )?(?:\w+ )?"
            r"(?:grader|marker|examiner|assistant|ai|bot|judge|evaluator|llm)\b"
        ),
        (("you",), _MACHINE_W + ("judge", "bot", "marker", "examiner", "evaluator")),
    ),
    (
        "instruction",
        (
            r"\b(?:act|acting|behave|behaving|role-?play(?:ing)?) (?:as|like) (?:if you "
            r"(?:are|were) )?(?:a |an |the |my )?(?:\w+ )?(?:\w+ )?(?:grader|marker|"
            r"examiner|assistant|ai|model|judge|evaluator|teacher)\b"
        ),
        (("act as", "act like", "acting as", "acting like", "behave", "behaving", "role"),),
    ),
    (
        "instruction",
        (
            r"\b(?:from now on|from this point on|henceforth),? you (?:will|must|should|"
            r"are to|have to|shall)\b"
        ),
        (("now on", "point on", "henceforth"),),
    ),
    (
        "instruction",
        (
            r"\b(?:new (?:instructions?|task|role|rules?|system prompt)|system ?(?:prompt|"
            r"message|instructions?|override)) ?:"
        ),
        (("instruction", "task", "role", "rule", "prompt", "message", "override"), (":",)),
    ),
    (
        "instruction",
        r"\b(?:developer mode|jailbreak|dan mode)\b",
        (("developer mode", "jailbreak", "dan mode"),),
    ),
    (
        "instruction",
        (
            r"\b(?:respond|reply|answer|output) (?:only )?(?:with|in) (?:the following|"
            r"this) (?:json|verdict|label)"
        ),
        (("json", "verdict", "label"),),
    ),
)

# --- Chinese (folded: fullwidth punctuation is ASCII) -----------------------------------------

_ZH_ROLE = (
    r"(?:(?:阅卷|评卷|改卷|批卷|判卷|批改|评分|打分|评阅|审卷)(?:老师|人员|人|者|员|专家|系统|"
    r"模型|程序|助手|ai|机器人|官)|(?:ai|人工智能|大模型|语言模型|智能)(?:阅卷|评分|批改|判卷|"
    r"老师|助手|评卷)(?:老师|员|系统|者)?)"
)
_ZH_KEY = r"(?:标准答案|参考答案|官方答案|评分标准|评分细则|阅卷标准|答案册|课本答案)"
_ZH_JUDGE = r"(?:判定|判为|判成|评为|评定为?|标记为?|标为|标注为?|认定为?|视为|算作|当作|记为|看作)"
_ZH_ALL = (
    r"(?:所有|全部|每一?个|每一?步|各个?|整个|本题|本解答|这份解答|此解答|我的解答|本答案|"
    r"我的答案)?的?(?:步骤|步|解答|过程|答案)?(?:都|均|全部|全)?"
)
_ZH_START = r"(?:^|(?<=[.!?;:\n。(]))\s?"
_ZH_ROLE_W = (
    "阅卷",
    "评卷",
    "改卷",
    "批卷",
    "判卷",
    "批改",
    "评分",
    "打分",
    "评阅",
    "审卷",
    "ai",
    "人工智能",
    "大模型",
    "语言模型",
    "智能",
)
_ZH_KEY_W = (
    "标准答案",
    "参考答案",
    "官方答案",
    "评分标准",
    "评分细则",
    "阅卷标准",
    "答案册",
    "课本答案",
)

_CHINESE: tuple[tuple[Cue, str, _Needs], ...] = (
    (
        "address",
        r"(?:致|写给|敬告|提醒|告知) ?(?:各位|亲爱的|尊敬的)?" + _ZH_ROLE,
        (("致", "写给", "敬告", "提醒", "告知"), _ZH_ROLE_W),
    ),
    (
        "address",
        r"(?:给|致)" + _ZH_ROLE + r"的(?:话|留言|信|说明|备注|提示|一封信)",
        (("给", "致"), _ZH_ROLE_W),
    ),
    (
        "address",
        r"(?:备注|附注|附言|留言|提示|说明) ?(?:给|致)?" + _ZH_ROLE + r" ?[:,]",
        (("备注", "附注", "附言", "留言", "提示", "说明"), _ZH_ROLE_W),
    ),
    (
        "address",
        _ZH_START + r"(?:亲爱的|尊敬的)? ?" + _ZH_ROLE + r" ?(?:您好|你好|们好|[:,])",
        (_ZH_ROLE_W,),
    ),
    (
        "address",
        r"(?:亲爱的|尊敬的) ?(?:阅卷|评卷|批改|评分)?(?:老师|考官|评委)",
        (("亲爱", "尊敬"),),
    ),
    (
        "address",
        r"老师(?:您好|你好)|" + _ZH_START + r"老师 ?[,:] ?(?:请|麻烦|拜托|求求)",
        (("老师",),),
    ),
    (
        "address",
        r"你(?:现在)?(?:是|就是|作为|扮演)(?:一[个名位])?.{0,4}?(?:"
        + _ZH_ROLE
        + r"|阅卷老师|评分员|人工智能|语言模型|ai助手|评分系统)",
        (("你",), _ZH_ROLE_W),
    ),
    (
        "request",
        (
            r"(?:给|打|评|判|记|给予|给出)(?:我|本题|这道题|此题|该题|本解答|此解答|这份解答|"
            r"这个解答|本答案|我的解答|我的答案|这份答案|全题|本人)?(?:个|一个|为)?(?:满分|全分)"
        ),
        (("满分", "全分"),),
    ),
    (
        "request",
        r"(?:请|麻烦|务必|一定要|应该|应当|必须|需要|希望|恳请|拜托)[^。!?\n]{0,12}?"
        r"(?:判|"
        + _ZH_JUDGE
        + r"|打|给)(?:为|成|是)?"
        + _ZH_ALL
        + r"(?:为|是|成)?(?:正确|全对|满分|无误|对)",
        (
            (
                "请",
                "麻烦",
                "务必",
                "一定要",
                "应该",
                "应当",
                "必须",
                "需要",
                "希望",
                "恳请",
                "拜托",
            ),
            ("正确", "全对", "满分", "无误", "对"),
        ),
    ),
    (
        "request",
        r"(?:将|把)(?:所有|全部|每一?个|每一?步|各个?|整个|本题|本解答|这份解答|此解答|我的解答)"
        r"的?(?:步骤|步|解答|过程|答案)?(?:都|均|全部|全)?(?:判|"
        + _ZH_JUDGE
        + r")(?:为|是|成)?(?:正确|全对|满分|无误|对)",
        (
            ("将", "把"),
            (
                "判",
                "评为",
                "评定",
                "标记",
                "标为",
                "标注",
                "认定",
                "视为",
                "算作",
                "当作",
                "记为",
                "看作",
            ),
        ),
    ),
    (
        "request",
        r"(?:所有|全部|每一?个|每一?步)的?(?:步骤|步)(?:都|均|全部|全)?(?:应|应该|应当|请|要|"
        r"须|必须)(?:被)?(?:判|" + _ZH_JUDGE + r")(?:为|是|成)?(?:正确|全对|满分|无误|对)",
        (("所有", "全部", "每"), ("步",)),
    ),
    (
        "request",
        r"(?:不要|请勿|不得|切勿|请不要|别)(?:再)?(?:扣分|扣我|扣除分数|判错|判为错误|标记为错误)",
        (("扣", "判错", "判为错误", "标记为错误"),),
    ),
    (
        "verification",
        r"(?:已|已经)(?:经)?(?:与|和|跟|同|对照|按照|比对|根据)? ?(?:"
        + _ZH_KEY
        + r"|老师|教师|阅卷老师)(?:进行)?(?:了)?(?:核对|对照|比对|核实|验证|检查|确认|审核|"
        r"批改|审阅)",
        (("已",), _ZH_KEY_W + ("老师", "教师")),
    ),
    (
        "verification",
        r"(?:与|和|跟|同) ?" + _ZH_KEY + r"(?:进行)?(?:核对|对照|比对)?(?:过|了)?(?:完全)?"
        r"(?:一致|相符|相同|吻合|无误|对应)",
        (_ZH_KEY_W,),
    ),
    (
        "verification",
        (
            r"(?:本|此|该|这份|这个|我的|以上|上述)(?:解答|解法|答案|过程|解题过程|证明|步骤|"
            r"计算)(?:已|已经)(?:经)?(?:过)?(?:被)?(?:老师|阅卷老师|专家|系统|教师)?(?:核对|"
            r"核实|审核|批改|认可|批准|审阅|认证|验证过|检查过)"
        ),
        (("已",),),
    ),
    (
        "verification",
        r"(?:老师|阅卷老师|教师|" + _ZH_KEY + r")(?:已经?|已)(?:确认|认可|核实|证实|批准|"
        r"审核|批改)|(?:老师|阅卷老师|教师|" + _ZH_KEY + r")(?:确认|认可|核实|证实)"
        r"(?:本|此|该|这份)?(?:解答|答案|过程)?(?:正确|无误|是对的)",
        (_ZH_KEY_W + ("老师", "教师"),),
    ),
    ("verification", r"审核通过|已通过(?:老师|阅卷)?(?:审核|验证)", (("审核通过", "已通过"),)),
    (
        "instruction",
        (
            r"(?:忽略|无视|忘记|忘掉|不要理会|不用理会|不必理会|跳过|撤销|覆盖|取消)(?:掉)?"
            r"(?:之前|以上|上面|上述|前面|先前|此前|所有|全部|原有|原来|系统|你的|一切)?的?"
            r"(?:所有|全部|一切)?的?(?:指令|指示|提示词?|要求|规则|评分标准|评分规则|评分细则|"
            r"设定|系统提示|命令)"
        ),
        (("忽略", "无视", "忘记", "忘掉", "理会", "跳过", "撤销", "覆盖", "取消"),),
    ),
    (
        "instruction",
        (
            r"(?:扮演|假装|假扮|冒充)(?:成|为)?(?:一个|一名|一位)?.{0,4}?(?:阅卷|评分|批改|"
            r"宽松|仁慈)?(?:老师|考官|助手|评分员|ai|模型|系统)"
        ),
        (("扮演", "假装", "假扮", "冒充"),),
    ),
    (
        "instruction",
        r"(?:从现在开始|从现在起|接下来) ?,? ?你(?:要|必须|需要|应该|只需)",
        (("从现在", "接下来"),),
    ),
    (
        "instruction",
        r"(?:新的|新)(?:指令|任务|规则|系统提示) ?:|系统(?:提示|指令|消息) ?:",
        (("指令", "任务", "规则", "系统"), (":",)),
    ),
    (
        "instruction",
        r"(?:请|你)(?:只|仅)?(?:输出|返回|回复)(?:以下|如下|下面)的?(?:json|内容|结果|结论)",
        (("输出", "返回", "回复"),),
    ),
)

# Read on the text itself: chat-template tokens and verdicts in the grader's own JSON, which
# folding would take apart as markup.
_RAW: tuple[tuple[Cue, str], ...] = (
    (
        "instruction",
        (
            r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|"
            r"start_header_id|end_header_id)\|>|\[/?inst\]|<</?sys>>"
            r"|<(?:start|end)_of_turn>"
            r"|^\s*#{2,}\s*(?:system|instruction|response)\b"
        ),
    ),
    (
        "instruction",
        (
            r"\"(?:label|verdict|correct|is_correct|score|grade|"
            r"process_evaluation_needed)\""
            r"\s*:\s*(?:\"(?:correct|incorrect|meaningless|redundant|right|wrong)\"|true|"
            r"false|\d+(?:\.\d+)?)"
        ),
    ),
)

# Who a note is addressed to, in either language: on its own, not mathematics.
ROLE_WORDS = re.compile(r"\b" + _ROLE + r"\b|" + _ZH_ROLE)

PATTERNS = tuple((cue, re.compile(p), needs) for cue, p, needs in (*_ENGLISH, *_CHINESE))

RAW_PATTERNS = tuple((cue, re.compile(p, re.IGNORECASE | re.MULTILINE)) for cue, p in _RAW)
