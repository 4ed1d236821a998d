<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>DecoderPanel</name>
    <message numerus="yes">
        <source>The %n rows that see the first token “{0}” among other keys (rows {1}) put on average {2} of their weight on it (least {3}, most {4}).</source>
        <translation>
            <numerusform>The %n row that sees the first token “{0}” among other keys (row {1}) puts on average {2} of its weight on it (least {3}, most {4}).</numerusform>
            <numerusform>The %n rows that see the first token “{0}” among other keys (rows {1}) put on average {2} of their weight on it (least {3}, most {4}).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DiagnosticsPanel</name>
    <message numerus="yes">
        <source>%n rows overflowed (an exp(s) is ∞, and ∞/∞ = NaN)</source>
        <translation>
            <numerusform>%n row overflowed (an exp(s) is ∞, and ∞/∞ = NaN)</numerusform>
            <numerusform>%n rows overflowed (an exp(s) is ∞, and ∞/∞ = NaN)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rows underflowed (every exp(s) is 0, and 0/0 = NaN)</source>
        <translation>
            <numerusform>%n row underflowed (every exp(s) is 0, and 0/0 = NaN)</numerusform>
            <numerusform>%n rows underflowed (every exp(s) is 0, and 0/0 = NaN)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rows&apos; sums overflowed (every exp(s) is finite, their sum is ∞, and every weight is 0)</source>
        <translation>
            <numerusform>%n row&apos;s sum overflowed (every exp(s) is finite, their sum is ∞, and every weight is 0)</numerusform>
            <numerusform>%n rows&apos; sums overflowed (every exp(s) is finite, their sum is ∞, and every weight is 0)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExplainPanel</name>
    <message numerus="yes">
        <source>… and %n keys with smaller weights</source>
        <translation>
            <numerusform>… and %n key with a smaller weight</numerusform>
            <numerusform>… and %n keys with smaller weights</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExportActions</name>
    <message numerus="yes">
        <source>Exported %n files to {0}</source>
        <translation>
            <numerusform>Exported %n file to {0}</numerusform>
            <numerusform>Exported %n files to {0}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExportAllDialog</name>
    <message numerus="yes">
        <source>Writes %n files into the folder, all together or none.</source>
        <translation>
            <numerusform>Writes %n file into the folder, all together or none.</numerusform>
            <numerusform>Writes %n files into the folder, all together or none.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GradientLab</name>
    <message numerus="yes">
        <source>Train %n steps</source>
        <translation>
            <numerusform>Train %n step</numerusform>
            <numerusform>Train %n steps</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>KVCacheLab</name>
    <message numerus="yes">
        <source>K cache: %n rows (+1)</source>
        <translation>
            <numerusform>K cache: %n row (+1)</numerusform>
            <numerusform>K cache: %n rows (+1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>V cache: %n rows (+1)</source>
        <translation>
            <numerusform>V cache: %n row (+1)</numerusform>
            <numerusform>V cache: %n rows (+1)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LessonBanners</name>
    <message numerus="yes">
        <source>Naive softmax broke: every weight of %n rows is 0.</source>
        <translation>
            <numerusform>Naive softmax broke: every weight of %n row is 0.</numerusform>
            <numerusform>Naive softmax broke: every weight of %n rows is 0.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Naive softmax broke: %n rows of 0s</source>
        <translation>
            <numerusform>Naive softmax broke: %n row of 0s</numerusform>
            <numerusform>Naive softmax broke: %n rows of 0s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Naive softmax broke: every weight of %n rows is 0&lt;/b&gt;. In those rows every exp(s) is finite (the largest scaled score is {0}, below {1}), but their sum overflows to ∞, so every weight is exp(s) / ∞ = 0 and the row sums to 0.</source>
        <translation>
            <numerusform>&lt;b&gt;Naive softmax broke: every weight of %n row is 0&lt;/b&gt;. In that row every exp(s) is finite (the largest scaled score is {0}, below {1}), but their sum overflows to ∞, so every weight is exp(s) / ∞ = 0 and the row sums to 0.</numerusform>
            <numerusform>&lt;b&gt;Naive softmax broke: every weight of %n rows is 0&lt;/b&gt;. In those rows every exp(s) is finite (the largest scaled score is {0}, below {1}), but their sum overflows to ∞, so every weight is exp(s) / ∞ = 0 and the row sums to 0.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>In %n more rows every exp(s) is finite, but their sum overflows to ∞, so every weight there is exp(s) / ∞ = 0.</source>
        <translation>
            <numerusform>In %n more row every exp(s) is finite, but their sum overflows to ∞, so every weight there is exp(s) / ∞ = 0.</numerusform>
            <numerusform>In %n more rows every exp(s) is finite, but their sum overflows to ∞, so every weight there is exp(s) / ∞ = 0.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryCalculator</name>
    <message numerus="yes">
        <source>%n layers</source>
        <translation>
            <numerusform>%n layer</numerusform>
            <numerusform>%n layers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tokens</source>
        <translation>
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
</context>
</TS>
