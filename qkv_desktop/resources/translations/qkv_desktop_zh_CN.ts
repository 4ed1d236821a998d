<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>About</name>
    <message>
        <source>QKV Desktop {0}</source>
        <translation>QKV Desktop {0}</translation>
    </message>
    <message>
        <source>See, touch and understand self-attention: Q, K, V, scores and weights as live, editable heatmaps.</source>
        <translation>看见、动手、理解自注意力：Q、K、V、注意力分数和注意力权重都是实时、可编辑的热力图。</translation>
    </message>
    <message>
        <source>Released under the {licence} licence.</source>
        <translation>以 {licence} 许可证发布。</translation>
    </message>
    <message>
        <source>Built with PySide6 {pyside} (Qt {qt}) and NumPy {numpy}.</source>
        <translation>基于 PySide6 {pyside}（Qt {qt}）和 NumPy {numpy} 构建。</translation>
    </message>
</context>
<context>
    <name>AsymmetryBadge</name>
    <message>
        <source>How asymmetric the scores are: ‖S − Sᵀ‖ / ‖S‖ for S = QKᵀ. It is 0 when the scores are symmetric, s_ij = s_ji (as when W_Q = W_K: S = KKᵀ), and larger the more s_ij and s_ji differ. Even symmetric scores give weights that are in general not symmetric: each row of the softmax has its own sum.</source>
        <translation>注意力分数的不对称程度：S = QKᵀ 时的 ‖S − Sᵀ‖ / ‖S‖。分数对称（s_ij = s_ji，例如 W_Q = W_K 时 S = KKᵀ）时它为 0，s_ij 与 s_ji 差得越多它越大。即使分数对称，注意力权重一般也不对称：softmax 的每一行都有自己的归一化总和。</translation>
    </message>
    <message>
        <source>QKᵀ asymmetry: n/a (cross-attention)</source>
        <translation>QKᵀ 非对称度：不适用（交叉注意力）</translation>
    </message>
    <message>
        <source>QKᵀ symmetric: ‖S−Sᵀ‖/‖S‖ = 0</source>
        <translation>QKᵀ 对称：‖S−Sᵀ‖/‖S‖ = 0</translation>
    </message>
    <message>
        <source>QKᵀ asymmetry ‖S−Sᵀ‖/‖S‖ = {0}</source>
        <translation>QKᵀ 非对称度 ‖S−Sᵀ‖/‖S‖ = {0}</translation>
    </message>
</context>
<context>
    <name>AttentionModel</name>
    <message>
        <source>“{0}” could not be applied and was removed from the undo history: {1}</source>
        <translation>“{0}”无法应用，已从撤销历史中移除：{1}</translation>
    </message>
    <message>
        <source>Could not compute attention: {0}.</source>
        <translation>无法计算注意力：{0}。</translation>
    </message>
    <message>
        <source>{0}: your edits were replaced; {1} brings them back.</source>
        <translation>{0}：你的编辑已被替换；按 {1} 可找回。</translation>
    </message>
    <message>
        <source>Your edits were replaced; {0} brings them back.</source>
        <translation>你的编辑已被替换；按 {0} 可找回。</translation>
    </message>
    <message>
        <source>{0} undoes it.</source>
        <translation>按 {0} 可撤销。</translation>
    </message>
</context>
<context>
    <name>AxisLabels</name>
    <message>
        <source>Only one name in {0} fits here; all of them: {1}. Hover a cell to read its tokens.</source>
        <translation>这里放不下所有名称，每 {0} 个只显示一个；全部为：{1}。把鼠标移到单元格上可查看它的词元。</translation>
    </message>
    <message>
        <source>Names are shortened to fit: {0}. Hover a cell to read its tokens.</source>
        <translation>名称已缩写以便放下：{0}。把鼠标移到单元格上可查看它的词元。</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>Hide details</source>
        <translation>收起详情</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
</context>
<context>
    <name>CellText</name>
    <message>
        <source>X[{0}, d{1}] = {2}  (input vector of {0})</source>
        <translation>X[{0}, d{1}] = {2}  （{0} 的输入向量）</translation>
    </message>
    <message>
        <source>X_kv[{0}, d{1}] = {2}</source>
        <translation>X_kv[{0}, d{1}] = {2}</translation>
    </message>
    <message>
        <source>masked (causal): key {1} comes after query {0}</source>
        <translation>已掩码（因果）：键 {1} 在查询 {0} 之后</translation>
    </message>
    <message>
        <source>masked (window): key {1} is outside the sliding window of query {0}</source>
        <translation>已掩码（窗口）：键 {1} 在查询 {0} 的滑动窗口之外</translation>
    </message>
    <message>
        <source>masked (custom): you masked {0} → {1} on the mask pane</source>
        <translation>已掩码（自定义）：你在掩码面板上掩码了 {0} → {1}</translation>
    </message>
    <message>
        <source>allowed (prefix): {0} and {1} are both in the prefix, which is seen in both directions</source>
        <translation>允许（前缀）：{0} 和 {1} 都在前缀内，前缀内双向可见</translation>
    </message>
    <message>
        <source>allowed (sink): key {1} is an attention sink, visible whatever the window</source>
        <translation>允许（汇聚点）：键 {1} 是注意力汇聚点（sink），不受窗口限制，始终可见</translation>
    </message>
    <message>
        <source>allowed: query {0} may attend to key {1}</source>
        <translation>允许：查询 {0} 可以关注键 {1}</translation>
    </message>
    <message>
        <source>masked (causal): weight exactly 0</source>
        <translation>已掩码（因果）：权重恰好为 0</translation>
    </message>
    <message>
        <source>masked (window): weight exactly 0</source>
        <translation>已掩码（窗口）：权重恰好为 0</translation>
    </message>
    <message>
        <source>masked (custom): weight exactly 0</source>
        <translation>已掩码（自定义）：权重恰好为 0</translation>
    </message>
    <message>
        <source>(X + P)[{0}, d{1}] = X {2} + P(position {3}, d{1}) {4} = {5}, where P = {6}({3} / 10000^({7}/{8}))</source>
        <translation>(X + P)[{0}, d{1}] = X {2} + P(位置 {3}, d{1}) {4} = {5}，其中 P = {6}({3} / 10000^({7}/{8}))</translation>
    </message>
    <message>
        <source>{0}[{1}, {2}] = {3}[{1}] turned by position {4}: pair {5} turns by {4}·{6:g}^(−2·{5}/{7}) = {8} rad, giving {9}</source>
        <translation>{0}[{1}, {2}] = {3}[{1}] 按位置 {4} 旋转：第 {5} 对维度旋转 {4}·{6:g}^(−2·{5}/{7}) = {8} 弧度，得到 {9}</translation>
    </message>
    <message>
        <source> (cross-attention: i is the query&apos;s position, j the key&apos;s in the other sequence, compared as if the two sequences were aligned)</source>
        <translation>（交叉注意力：i 是查询的位置，j 是另一序列中键的位置，按两个序列对齐来比较）</translation>
    </message>
    <message>
        <source>s[{0}, {1}] = −∞, {2} (weight exactly 0)</source>
        <translation>s[{0}, {1}] = −∞，{2}（权重恰好为 0）</translation>
    </message>
    <message>
        <source>S_shift[{0}, {1}] = −∞, {2}</source>
        <translation>S_shift[{0}, {1}] = −∞，{2}</translation>
    </message>
    <message>
        <source>S_shift[{0}, {1}] = s − max of row {0} = {2} − {3} = {4} (≤ 0, so exp ≤ 1)</source>
        <translation>S_shift[{0}, {1}] = s − {0} 行的最大值 = {2} − {3} = {4}（≤ 0，所以 exp ≤ 1）</translation>
    </message>
    <message>
        <source>w[{0}→{1}] = 0 exactly: {2}</source>
        <translation>w[{0}→{1}] 恰好为 0：{2}</translation>
    </message>
    <message>
        <source>out[{0}, {1}] = Σ_j w[{0}→j]·V[j, {1}] = {2}</source>
        <translation>out[{0}, {1}] = Σ_j w[{0}→j]·V[j, {1}] = {2}</translation>
    </message>
    <message>
        <source>concat[{0}, {1}] = head {2} out[{0}, {3}] = {4}</source>
        <translation>concat[{0}, {1}] = 头 {2} 的 out[{0}, {3}] = {4}</translation>
    </message>
    <message>
        <source>final[{0}, {1}] = concat[{0}, :]·W_O[:, {1}] = {2}</source>
        <translation>最终输出[{0}, {1}] = concat[{0}, :]·W_O[:, {1}] = {2}</translation>
    </message>
</context>
<context>
    <name>CellTip</name>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>key/value token</source>
        <translation>键/值词元</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>head · dimension</source>
        <translation>头 · 维度</translation>
    </message>
    <message>
        <source>row {0} ({1}) · column {2} ({3})</source>
        <translation>行 {0}（{1}）· 列 {2}（{3}）</translation>
    </message>
</context>
<context>
    <name>ClampSaying</name>
    <message>
        <source>The number</source>
        <translation>该数值</translation>
    </message>
    <message>
        <source>{0} can be at most {1}: {2} became {1}.</source>
        <translation>{0} 最大为 {1}：输入的 {2} 已改为 {1}。</translation>
    </message>
    <message>
        <source>{0} must be at least {1}: {2} became {1}.</source>
        <translation>{0} 至少为 {1}：输入的 {2} 已改为 {1}。</translation>
    </message>
    <message>
        <source>{0} keeps {3} decimals: {2} became {1}.</source>
        <translation>{0} 最多保留 {3} 位小数：输入的 {2} 已改为 {1}。</translation>
    </message>
    <message>
        <source>{0} needs a number: {2} is not one, so it stays {1}.</source>
        <translation>{0} 需要一个数：输入的 {2} 不是数，因此保持为 {1}。</translation>
    </message>
    <message>
        <source>{0} is a whole number: {2} is not one, so it stays {1}.</source>
        <translation>{0} 须为整数：输入的 {2} 不是整数，因此保持为 {1}。</translation>
    </message>
    <message>
        <source>{0} needs a dot as the decimal separator: {2} is not taken, so it stays {1}.</source>
        <translation>{0} 的小数点请用“.”：{2} 未被采用，因此保持 {1}。</translation>
    </message>
    <message>
        <source>{0} takes a whole number such as 12 or 1e3: “{1}” cannot go there, so it was not typed.</source>
        <translation>{0} 只能填整数，如 12 或 1e3：“{1}” 不能填在这里，因此未输入。</translation>
    </message>
    <message>
        <source>{0} takes a number such as 0.5 or 1e-3: “{1}” cannot go there, so it was not typed.</source>
        <translation>{0} 只能填数字，如 0.5 或 1e-3：“{1}” 不能填在这里，因此未输入。</translation>
    </message>
    <message>
        <source>From {0} to {1}.</source>
        <translation>范围：{0} 到 {1}。</translation>
    </message>
</context>
<context>
    <name>ControlsPanel</name>
    <message>
        <source>Dimension of the query/key/value vectors. Changing it re-initialises W_Q, W_K, W_V from the seed.</source>
        <translation>查询/键/值向量的维度。修改后会用随机种子重新初始化 W_Q、W_K、W_V。</translation>
    </message>
    <message>
        <source>Random seed of the weight initialisation (the tutorial uses 42 and 123).</source>
        <translation>权重初始化的随机种子（教程中使用 42 和 123）。</translation>
    </message>
    <message>
        <source>Weights are randn(d_model, d_k) × this scale.</source>
        <translation>权重 = randn(d_model, d_k) × 这个尺度。</translation>
    </message>
    <message>
        <source>÷ √d_k</source>
        <translation>÷ √d_k</translation>
    </message>
    <message>
        <source>none</source>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>custom ÷</source>
        <translation>自定义 ÷</translation>
    </message>
    <message>
        <source>What the scores QKᵀ are divided by before softmax.</source>
        <translation>注意力分数 QKᵀ 在 softmax 之前除以的数。</translation>
    </message>
    <message>
        <source>The custom divisor of the scores.</source>
        <translation>注意力分数的自定义除数。</translation>
    </message>
    <message>
        <source>Temperature T (0.05…10, logarithmic): weights = softmax(QKᵀ / (divisor·T)). Low T sharpens, high T flattens.</source>
        <translation>温度 T（0.05…10，对数刻度）：权重 = softmax(QKᵀ / (除数·T))。T 越低分布越尖锐，T 越高分布越平坦。</translation>
    </message>
    <message>
        <source>causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>Each token may attend only to itself and earlier tokens, as in a decoder.</source>
        <translation>每个词元只能关注自身和它之前的词元，与解码器中一样。</translation>
    </message>
    <message>
        <source>share W_Q = W_K</source>
        <translation>共享 W_Q = W_K</translation>
    </message>
    <message>
        <source>Number of attention heads h, each with its own W_Q, W_K, W_V. d_k stays while h·d_k fits in d_model, else becomes d_model / h where h divides d_model (where it does not, d_k stays and the heads together are wider than d_model). Changing h re-initialises the weights from the seed. W_Q, W_K and W_V hold 3·d_model·h·d_k numbers per layer: for GPT-3 175B 3·12288² ≈ 4.5×10⁸ in one layer, over all 96 heads.</source>
        <translation>注意力头数 h，每个头有自己的 W_Q、W_K、W_V。只要 h·d_k 不超过 d_model，d_k 保持不变；否则在 h 整除 d_model 时变为 d_model / h（不能整除时 d_k 保持不变，所有头拼起来比 d_model 更宽）。改变 h 会按种子重新初始化权重。W_Q、W_K 和 W_V 每层共有 3·d_model·h·d_k 个数：GPT-3 175B 的一层有 3·12288² ≈ 4.5×10⁸ 个，分布在全部 96 个头中。</translation>
    </message>
    <message>
        <source>naive softmax</source>
        <translation>朴素 softmax</translation>
    </message>
    <message>
        <source>exp(x)/Σexp(x) without subtracting the row maximum: large scores overflow to inf/NaN.</source>
        <translation>exp(x)/Σexp(x)，不减去行最大值：分数很大时会上溢为 inf/NaN。</translation>
    </message>
    <message>
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <source>Compute in single precision: about twice as fast for long sequences.</source>
        <translation>以单精度计算：长序列时大约快一倍。</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>heads h</source>
        <translation>头数 h</translation>
    </message>
    <message>
        <source>d_k</source>
        <translation>d_k</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>weight scale</source>
        <translation>权重尺度</translation>
    </message>
    <message>
        <source>scaling</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>self-attention (Q, K, V from X)</source>
        <translation>自注意力（Q、K、V 均来自 X）</translation>
    </message>
    <message>
        <source>cross-attention (K, V from X_kv)</source>
        <translation>交叉注意力（K、V 来自 X_kv）</translation>
    </message>
    <message>
        <source>Self-attention: queries, keys and values all come from X. Cross-attention: queries come from X, keys and values from a second sequence X_kv (e.g. an encoder&apos;s output), edited in the second token table.</source>
        <translation>自注意力：查询、键和值都来自 X。交叉注意力：查询来自 X，键和值来自第二个序列 X_kv（例如编码器的输出），在第二个词元表中编辑。</translation>
    </message>
    <message>
        <source>show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>The head the panes and the weight tables show; or click a head in the small multiples.</source>
        <translation>面板和权重表显示的头；也可以在各头的小图中点击一个头。</translation>
    </message>
    <message>
        <source>head {0}</source>
        <translation>头 {0}</translation>
    </message>
    <message>
        <source>output projection W_O</source>
        <translation>输出投影 W_O</translation>
    </message>
    <message>
        <source>Project the concatenated head outputs (n × h·d_k) back to d_model with W_O: final output = concat·W_O.</source>
        <translation>用 W_O 把拼接后的各头输出（n × h·d_k）投影回 d_model 维：最终输出 = concat·W_O。</translation>
    </message>
    <message>
        <source>The weights come from {0}: no seed or scale made them. Changing d_k or h starts again from random weights.</source>
        <translation>权重来自 {0}：不是由随机种子或缩放生成的。修改 d_k 或 h 会重新使用随机权重。</translation>
    </message>
    <message>
        <source>from {0}</source>
        <translation>来自 {0}</translation>
    </message>
    <message>
        <source>Use the same matrix for queries and keys: in self-attention QKᵀ becomes the symmetric KKᵀ of the tutorial&apos;s demo 2 (RoPE(K)·RoPE(K)ᵀ with RoPE).</source>
        <translation>查询和键使用同一个矩阵：在自注意力中，QKᵀ 变成教程示例 2 中对称的 KKᵀ（使用 RoPE 时为 RoPE(K)·RoPE(K)ᵀ）。</translation>
    </message>
    <message>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
    <message>
        <source>The number of heads h</source>
        <translation>头数 h</translation>
    </message>
    <message>
        <source>The seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>The weight scale</source>
        <translation>权重尺度</translation>
    </message>
    <message>
        <source>The custom divisor</source>
        <translation>自定义除数</translation>
    </message>
    <message>
        <source>Causal masking is off in cross-attention: every query may see the whole encoder sequence, which has no &apos;later&apos; tokens for it.</source>
        <translation>交叉注意力中不使用因果掩码：每个查询都可以看到整个编码器序列，对它来说不存在“后面的”词元。</translation>
    </message>
</context>
<context>
    <name>CrashGuard</name>
    <message>
        <source>Something went wrong</source>
        <translation>出错了</translation>
    </message>
    <message>
        <source>An unexpected error happened: {0}: {1}

Nothing was half-applied: your session is intact and the app keeps running. The details were written to {2}</source>
        <translation>发生了意外错误：{0}：{1}

每项更改要么完整生效，要么完全没有生效：你的会话完好无损，程序会继续运行。详细信息已写入 {2}</translation>
    </message>
</context>
<context>
    <name>DecoderPanel</name>
    <message>
        <source>Decoder</source>
        <translation>解码器</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Query head</source>
        <translation>查询头</translation>
    </message>
    <message>
        <source>Grouped-query attention</source>
        <translation>分组查询注意力</translation>
    </message>
    <message>
        <source>MHA vs GQA</source>
        <translation>MHA 与 GQA</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>Attention sink</source>
        <translation>注意力汇聚点</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>Show this layer&apos;s head (counted from 1); every layer was computed when the text was loaded</source>
        <translation>显示这一层的注意力头（从 1 开始计数）；加载文本时已经计算了所有层</translation>
    </message>
    <message>
        <source>Show this query head (counted from 1); W_K and W_V are those of the key/value head it shares</source>
        <translation>显示这个查询头（从 1 开始计数）；W_K 和 W_V 属于它共享的键/值头</translation>
    </message>
    <message>
        <source>The layer</source>
        <translation>层号</translation>
    </message>
    <message>
        <source>The query head</source>
        <translation>查询头编号</translation>
    </message>
    <message>
        <source>All heads of the layer</source>
        <translation>这一层的所有头</translation>
    </message>
    <message>
        <source>Load every query head of the layer with W_O, so the heads overview shows them side by side, grouped by the key/value head they share</source>
        <translation>加载这一层的所有查询头和 W_O，让多头总览把它们并排显示，并按共享的键/值头分组</translation>
    </message>
    <message>
        <source>{0} · layer {1} · query head {2} · “{3}”</source>
        <translation>{0} · 第 {1} 层 · 查询头 {2} · “{3}”</translation>
    </message>
    <message>
        <source>{0} · layer {1} · query head {2}</source>
        <translation>{0} · 第 {1} 层 · 查询头 {2}</translation>
    </message>
    <message>
        <source>{0} · layer {1} · head {2}</source>
        <translation>{0} · 第 {1} 层 · 头 {2}</translation>
    </message>
    <message>
        <source>W_Q, W_K, W_V, W_O of all layers: {0:,} parameters with GQA, {1:,} if every query head had its own keys and values (MHA), {2:.0%} fewer.
KV cache (float16): {3} per token with GQA against {4} with MHA; {5} against {6} for the full context of {7:,} tokens.</source>
        <translation>所有层的 W_Q、W_K、W_V、W_O：GQA 共 {0:,} 个参数；如果每个查询头都有自己的键和值（MHA）则为 {1:,} 个，GQA 少 {2:.0%}。
KV 缓存（float16）：GQA 每个词元 {3}，MHA 为 {4}；完整上下文 {7:,} 个词元时为 {5}，MHA 为 {6}。</translation>
    </message>
    <message>
        <source>{0}: {1}-bit floats, not quantised.</source>
        <translation>{0}：{1} 位浮点数，未量化。</translation>
    </message>
    <message>
        <source>{0}: quantised in blocks of {1} weights, {2} bits a weight with the blocks&apos; scales.</source>
        <translation>{0}：每块 {1} 个权重一起量化，连同各块的缩放系数，每个权重 {2} 位。</translation>
    </message>
    <message>
        <source>{0} has {1} layers of {2} query heads.</source>
        <translation>{0} 有 {1} 层，每层 {2} 个查询头。</translation>
    </message>
    <message>
        <source>Reopened from a session file without the model: open it again (File → Open model…) to switch layers and heads and to compute its next-token prediction, grouped-query attention and weight sizes.</source>
        <translation>从会话文件重新打开，没有模型：再次打开模型（文件 → 打开模型……）即可切换层和头，并计算它的下一个词元预测、分组查询注意力和权重大小。</translation>
    </message>
    <message>
        <source>Q and K are turned by position before QKᵀ (panes RoPE(Q), RoPE(K)); base {0}.</source>
        <translation>在计算 QKᵀ 之前，Q 和 K 按位置旋转（面板 RoPE(Q)、RoPE(K)）；底数 {0}。</translation>
    </message>
    <message>
        <source>Q and K are turned by position before QKᵀ (panes RoPE(Q), RoPE(K)); base {0} (the checkpoint&apos;s: {1}).</source>
        <translation>在计算 QKᵀ 之前，Q 和 K 按位置旋转（面板 RoPE(Q)、RoPE(K)）；底数 {0}（检查点的底数：{1}）。</translation>
    </message>
    <message>
        <source>The model&apos;s prediction for the token after “{0}” (from the model&apos;s own numbers: edits in the panes do not change it):</source>
        <translation>模型对“{0}”之后下一个词元的预测（来自模型自己的数值：在面板中的编辑不会改变它）：</translation>
    </message>
    <message>
        <source>No prediction: open the model again to compute it.</source>
        <translation>没有预测：再次打开模型即可计算。</translation>
    </message>
    <message>
        <source>piece {0}</source>
        <translation>片段 {0}</translation>
    </message>
    <message>
        <source>K/V head {0} ← query heads {1}</source>
        <translation>键/值头 {0} ← 查询头 {1}</translation>
    </message>
    <message>
        <source>{0} query heads share {1} key/value heads, {2} each: query head {3} uses W_K and W_V of key/value head {4}.</source>
        <translation>{0} 个查询头共享 {1} 个键/值头，每组 {2} 个：查询头 {3} 使用键/值头 {4} 的 W_K 和 W_V。</translation>
    </message>
    <message>
        <source>The attention sink is a lesson of a decoder&apos;s self-attention: this session is cross-attention. Switch back to self-attention to see it.</source>
        <translation>注意力汇聚点（attention sink）是解码器自注意力的一课：本会话是交叉注意力。切换回自注意力即可看到它。</translation>
    </message>
    <message>
        <source>No row both sees the first token and could look elsewhere: the mask decides this head&apos;s weight on it.</source>
        <translation>没有哪一行既能看到第一个词元、又能看向别处：这个头放在它上面的权重由掩码决定。</translation>
    </message>
    <message>
        <source>Rows 1 … {0} put on average {1} of their weight on the first token “{2}” (least {3}, most {4}); row 0 can only see it.</source>
        <translation>第 1 至 {0} 行平均把 {1} 的权重放在第一个词元“{2}”上（最少 {3}，最多 {4}）；第 0 行只能看到它。</translation>
    </message>
    <message>
        <source>Rows 0 … {0} put on average {1} of their weight on the first token “{2}” (least {3}, most {4}).</source>
        <translation>第 0 至 {0} 行平均把 {1} 的权重放在第一个词元“{2}”上（最少 {3}，最多 {4}）。</translation>
    </message>
    <message>
        <source>The weights are the file&apos;s stored values, dequantised to float32 by the gguf package; the forward runs in float64.</source>
        <translation>权重是文件中存储的数值，由 gguf 包反量化为 float32；前向计算使用 float64。</translation>
    </message>
    <message>
        <source>Dimension i rotates together with dimension i + {0} (Hugging Face&apos;s layout; the GGUF file stores them as neighbours 2i, 2i + 1 and they are reordered on reading, which leaves the attention unchanged).</source>
        <translation>第 i 维与第 i + {0} 维一起旋转（Hugging Face 的排列；GGUF 文件把它们存为相邻的 2i、2i + 1，读取时重新排列，注意力结果不变）。</translation>
    </message>
    <message>
        <source>Dimension 2i rotates together with dimension 2i + 1 (this session&apos;s setting: the model pairs i with i + {0}, so the attention is no longer the model&apos;s).</source>
        <translation>第 2i 维与第 2i + 1 维一起旋转（这是本会话的设置：模型把第 i 维与第 i + {0} 维配对，所以这里的注意力已不再是模型的注意力）。</translation>
    </message>
    <message numerus="yes">
        <source>The %n rows that see the first token “{0}” among other keys (rows {1}) put on average {2} of their weight on it (least {3}, most {4}).</source>
        <translation>
            <numerusform>看到第一个词元“{0}”且还能看到其他键的 %n 行（第 {1} 行）平均把 {2} 的权重放在它上面（最少 {3}，最多 {4}）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Spread evenly over the keys each row sees, the weights would put {0} there: this head puts {1:.1f} times that on it, an attention sink (decoders park attention they do not need on the first token, in all but their first few layers).</source>
        <translation>若每行把权重平均分给它能看到的键，放在这里的将是 {0}：这个头放在它上面的是这个值的 {1:.1f} 倍，是一个注意力汇聚点（除了最前面几层，解码器都把用不上的注意力停放在第一个词元上）。</translation>
    </message>
    <message>
        <source>Spread evenly over the keys each row sees, the weights would put {0} there: no attention sink in this head (decoders park attention they do not need on the first token in all but their first few layers, though not in every head).</source>
        <translation>若每行把权重平均分给它能看到的键，放在这里的将是 {0}：这个头没有注意力汇聚点（除了最前面几层，解码器都把用不上的注意力停放在第一个词元上，但并非每个头都如此）。</translation>
    </message>
    <message>
        <source>row {0} ({1}): {2:.4f}</source>
        <translation>第 {0} 行（{1}）：{2:.4f}</translation>
    </message>
</context>
<context>
    <name>DiagnosticsPanel</name>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>H / log n</source>
        <translation>H / log n</translation>
    </message>
    <message>
        <source>entropy H (nats)</source>
        <translation>熵 H（奈特）</translation>
    </message>
    <message>
        <source>max weight</source>
        <translation>最大权重</translation>
    </message>
    <message>
        <source>attends most to</source>
        <translation>最关注</translation>
    </message>
    <message>
        <source>The query token (one row of the weights).</source>
        <translation>查询词元（权重矩阵的一行）。</translation>
    </message>
    <message>
        <source>Entropy of the row&apos;s weights in nats: 0 = all on one key, log n = spread evenly.</source>
        <translation>该行权重的熵（单位：奈特）：0 = 全部集中在一个键上，log n = 均匀分布。</translation>
    </message>
    <message>
        <source>Entropy as a fraction of its largest possible value log n (n = keys the query may see): near 1 = nearly uniform.</source>
        <translation>熵占其最大可能值 log n 的比例（n = 该查询可见的键数）：接近 1 = 接近均匀。</translation>
    </message>
    <message>
        <source>The largest weight of the row: 1/n when uniform, 1 when one-hot.</source>
        <translation>该行的最大权重：均匀时为 1/n，one-hot 时为 1。</translation>
    </message>
    <message>
        <source>The key with the largest weight.</source>
        <translation>权重最大的键。</translation>
    </message>
    <message>
        <source>&lt;b&gt;QKᵀ asymmetry&lt;/b&gt;: not defined in cross-attention (queries and keys are different sequences).</source>
        <translation>&lt;b&gt;QKᵀ 非对称度&lt;/b&gt;：在交叉注意力中没有定义（查询和键来自不同的序列）。</translation>
    </message>
    <message numerus="yes">
        <source>%n rows&apos; sums overflowed (every exp(s) is finite, their sum is ∞, and every weight is 0)</source>
        <translation>
            <numerusform>%n 行的和上溢（每个 exp(s) 都是有限的，但它们的和为 ∞，每个权重都为 0）</numerusform>
        </translation>
    </message>
    <message>
        <source>Some weights are NaN (naive softmax): {0}.</source>
        <translation>部分权重为 NaN（朴素 softmax）：{0}。</translation>
    </message>
    <message>
        <source>The naive softmax broke: {0}.</source>
        <translation>朴素 softmax 出错了：{0}。</translation>
    </message>
    <message>
        <source>Nearly uniform: every row&apos;s entropy is above {0:.0%} of log n (max |w − 1/n| = {1}).</source>
        <translation>接近均匀：每一行的熵都超过 log n 的 {0:.0%}（max |w − 1/n| = {1}）。</translation>
    </message>
    <message>
        <source>Mean H / log n {0}; mean max weight = {1}.</source>
        <translation>平均 H / log n {0}；平均最大权重 = {1}。</translation>
    </message>
    <message>
        <source>i→j and j→i differ, as separate W_Q and W_K allow.</source>
        <translation>i→j 与 j→i 不同，这正是独立的 W_Q 和 W_K 所允许的。</translation>
    </message>
    <message>
        <source>&lt;b&gt;QKᵀ asymmetry&lt;/b&gt; ‖S − Sᵀ‖ / ‖S‖ = &lt;b&gt;{0}&lt;/b&gt;</source>
        <translation>&lt;b&gt;QKᵀ 非对称度&lt;/b&gt; ‖S − Sᵀ‖ / ‖S‖ = &lt;b&gt;{0}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>symmetric scores, s_ij = s_ji; the weights may still differ, since each row has its own softmax sum.</source>
        <translation>分数对称，s_ij = s_ji；但权重仍可能不同，因为每一行的 softmax 都有自己的总和。</translation>
    </message>
    <message>
        <source>Head {0}: </source>
        <translation>头 {0}：</translation>
    </message>
    <message numerus="yes">
        <source>%n rows overflowed (an exp(s) is ∞, and ∞/∞ = NaN)</source>
        <translation>
            <numerusform>%n 行上溢（某个 exp(s) 为 ∞，而 ∞/∞ = NaN）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rows underflowed (every exp(s) is 0, and 0/0 = NaN)</source>
        <translation>
            <numerusform>%n 行下溢（每个 exp(s) 都为 0，而 0/0 = NaN）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DiagnosticsTableModel</name>
    <message>
        <source>This query sees one key: its weight is 1, its entropy 0, and H / log n is 0 / 0 (log 1 = 0), so it has no fraction.</source>
        <translation>这个查询只看得到一个键：它的权重是 1，熵是 0，而 H / log n 是 0 / 0（log 1 = 0），所以没有比例。</translation>
    </message>
</context>
<context>
    <name>Edits</name>
    <message>
        <source>only finite numbers can be used</source>
        <translation>只能使用有限数值</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新</translation>
    </message>
    <message>
        <source>{0}; the change was not applied.</source>
        <translation>{0}；此更改未应用。</translation>
    </message>
    <message>
        <source>there is no key/value sequence yet</source>
        <translation>还没有键/值序列</translation>
    </message>
    <message>
        <source>Edit {0} values</source>
        <translation>编辑 {0} 个值</translation>
    </message>
    <message>
        <source>Rename {0} to {1}</source>
        <translation>将 {0} 重命名为 {1}</translation>
    </message>
    <message>
        <source>a new token needs {0} finite values</source>
        <translation>新词元需要 {0} 个有限数值</translation>
    </message>
    <message>
        <source>Add token</source>
        <translation>添加词元</translation>
    </message>
    <message>
        <source>Add {0} tokens</source>
        <translation>添加 {0} 个词元</translation>
    </message>
    <message>
        <source>Insert token</source>
        <translation>插入词元</translation>
    </message>
    <message>
        <source>Insert {0} tokens</source>
        <translation>插入 {0} 个词元</translation>
    </message>
    <message>
        <source>the key/value sequence needs at least one token</source>
        <translation>键/值序列至少需要一个词元</translation>
    </message>
    <message>
        <source>a session needs at least one token: the last one stays</source>
        <translation>会话至少需要一个词元：最后一个保留</translation>
    </message>
    <message>
        <source>Delete token</source>
        <translation>删除词元</translation>
    </message>
    <message>
        <source>Delete {0} tokens</source>
        <translation>删除 {0} 个词元</translation>
    </message>
    <message>
        <source>Move {0}</source>
        <translation>移动 {0}</translation>
    </message>
    <message>
        <source>The painted mask would have left the query “{0}” no key to attend to: its painted cells were unmasked (Ctrl+Z brings them back).</source>
        <translation>涂出的掩码会让查询“{0}”没有任何可关注的键：它涂出的单元格已取消遮住（按 Ctrl+Z 可恢复）。</translation>
    </message>
    <message>
        <source>The painted mask would have left {0} queries no key to attend to: their painted cells were unmasked (Ctrl+Z brings them back).</source>
        <translation>涂出的掩码会让 {0} 个查询没有任何可关注的键：它们涂出的单元格已取消遮住（按 Ctrl+Z 可恢复）。</translation>
    </message>
    <message>
        <source>only finite numbers can be pasted</source>
        <translation>只能粘贴有限数值</translation>
    </message>
    <message>
        <source>Paste {0}×{1} values</source>
        <translation>粘贴 {0}×{1} 个值</translation>
    </message>
    <message>
        <source>the values would become too large to be finite</source>
        <translation>数值会变得过大，超出有限数范围</translation>
    </message>
    <message>
        <source>Multiply inputs by {0}</source>
        <translation>输入乘以 {0}</translation>
    </message>
    <message>
        <source>Imported {0}: X is now {1} × {2} (tokens × d_model).</source>
        <translation>已导入 {0}：X 现在是 {1} × {2}（词元数 × d_model）。</translation>
    </message>
    <message>
        <source>d_model went from {0} to {1}, so new weights were drawn from seed {2}.</source>
        <translation>d_model 从 {0} 变为 {1}，因此已按种子 {2} 重新随机生成权重。</translation>
    </message>
    <message>
        <source>d_model went from {0} to {1}, so new weights were drawn from seed {2} and the vectors of X_kv were cut or padded with zeros to {1} values.</source>
        <translation>d_model 从 {0} 变为 {1}，因此已按种子 {2} 重新随机生成权重，X_kv 的向量也已截断或补零为 {1} 个值。</translation>
    </message>
    <message>
        <source>The painted mask was cleared: it was for the old tokens.</source>
        <translation>已清除涂出的掩码：它是为原来的词元涂的。</translation>
    </message>
    <message>
        <source>Import {0}</source>
        <translation>导入 {0}</translation>
    </message>
    <message>
        <source>Imported {0}: W_Q, W_K and W_V, d_model × d_k = {2} × {3}, h = {1}.</source>
        <translation>已导入 {0}：W_Q、W_K 和 W_V，d_model × d_k = {2} × {3}，h = {1}。</translation>
    </message>
    <message>
        <source>The heads went from {0} to {1}, so W_O was drawn again from seed {2}.</source>
        <translation>头数从 {0} 变为 {1}，因此 W_O 已用种子 {2} 重新抽取。</translation>
    </message>
    <message>
        <source>New weights were drawn from seed {0}: the weights you had (typed in or loaded) are replaced. Ctrl+Z brings them back.</source>
        <translation>已按种子 {0} 重新随机生成权重：你原来的权重（手动输入或载入的）已被替换。按 Ctrl+Z 可恢复。</translation>
    </message>
    <message>
        <source>d_k is now {0}: {1} heads of d_k = {2} would need h·d_k = {3}, more than d_model = {4}, so the heads split d_model into {1} × {0}. Fewer heads keep d_k = {0}; Ctrl+Z brings d_k {2} back.</source>
        <translation>d_k 现在是 {0}：{1} 个 d_k = {2} 的头需要 h·d_k = {3}，超过了 d_model = {4}，因此各头把 d_model 分成 {1} × {0}。之后减少头数时 d_k 仍为 {0}；按 Ctrl+Z 可恢复 d_k = {2}。</translation>
    </message>
    <message>
        <source>{0} {1}</source>
        <translation>{0}{1}</translation>
    </message>
    <message>
        <source>Set d_model to {0}</source>
        <translation>将 d_model 设为 {0}</translation>
    </message>
    <message>
        <source>d_model cannot go below 1</source>
        <translation>d_model 不能小于 1</translation>
    </message>
    <message>
        <source>Remove dimension {0}</source>
        <translation>删除维度 {0}</translation>
    </message>
    <message>
        <source>Set d_k to {0}</source>
        <translation>将 d_k 设为 {0}</translation>
    </message>
    <message>
        <source>Set seed to {0}</source>
        <translation>将随机种子设为 {0}</translation>
    </message>
    <message>
        <source>the initial weight scale must be a positive number</source>
        <translation>初始权重尺度必须是正数</translation>
    </message>
    <message>
        <source>Set weight scale to {0}</source>
        <translation>将权重尺度设为 {0}</translation>
    </message>
    <message>
        <source>Set heads to {0}</source>
        <translation>将头数设为 {0}</translation>
    </message>
    <message>
        <source>Output projection W_O on</source>
        <translation>开启输出投影 W_O</translation>
    </message>
    <message>
        <source>Output projection W_O off</source>
        <translation>关闭输出投影 W_O</translation>
    </message>
    <message>
        <source>Change {0}</source>
        <translation>更改 {0}</translation>
    </message>
    <message>
        <source>Mask cells</source>
        <translation>掩码单元格</translation>
    </message>
    <message>
        <source>Unmask cells</source>
        <translation>取消掩码单元格</translation>
    </message>
    <message>
        <source>The painted mask was cleared: its columns were the tokens of X, and in cross-attention the keys are those of X_kv. Ctrl+Z brings it back.</source>
        <translation>已清除涂出的掩码：它的列是 X 的词元，而交叉注意力的键来自 X_kv。按 Ctrl+Z 可恢复。</translation>
    </message>
    <message>
        <source>The painted mask was cleared: its columns were the tokens of X_kv, and in self-attention the keys are those of X. Ctrl+Z brings it back.</source>
        <translation>已清除涂出的掩码：它的列是 X_kv 的词元，而自注意力的键来自 X。按 Ctrl+Z 可恢复。</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>{0} heads are more than the {1} this app can show</source>
        <translation>{0} 个头超过了本应用能显示的 {1} 个</translation>
    </message>
    <message>
        <source>; in float32 up to {0} fit</source>
        <translation>；用 float32 最多可容纳 {0} 个</translation>
    </message>
    <message>
        <source>{0} queries × {1} keys × {2} heads make {3} attention cells, more than the {4} this app can hold in memory in {5}{6}</source>
        <translation>{0} 个查询 × {1} 个键 × {2} 个头共 {3} 个注意力单元格，超过了本应用在 {5} 下能放进内存的 {4} 个{6}</translation>
    </message>
    <message>
        <source>{0} tokens with d_model = {1}, d_k = {2} and {3} heads make a matrix of {4} cells, more than the {5} this app can hold in memory</source>
        <translation>{0} 个词元、d_model = {1}、d_k = {2}、{3} 个头会产生一个 {4} 个单元格的矩阵，超过了本应用能放进内存的 {5} 个</translation>
    </message>
    <message>
        <source>{0}[{1}] must be a non-empty string</source>
        <translation>{0}[{1}] 必须是非空字符串</translation>
    </message>
    <message>
        <source>{0}[{1}] has {2} characters; a token name can have at most {3}</source>
        <translation>{0}[{1}] 有 {2} 个字符；词元名称最多 {3} 个字符</translation>
    </message>
    <message>
        <source>the number of heads must be a positive integer, got {0}</source>
        <translation>头数必须是正整数，实际为 {0}</translation>
    </message>
    <message>
        <source>{0} must be a positive integer, got {1}</source>
        <translation>{0} 必须是正整数，实际为 {1}</translation>
    </message>
    <message>
        <source>{0} must be a positive integer or off, got {1}</source>
        <translation>{0} 必须是正整数或关闭，实际为 {1}</translation>
    </message>
    <message>
        <source>{0} must be a non-negative integer, got {1}</source>
        <translation>{0} 必须是非负整数，实际为 {1}</translation>
    </message>
    <message>
        <source>{0} must be a non-negative integer or off, got {1}</source>
        <translation>{0} 必须是非负整数或关闭，实际为 {1}</translation>
    </message>
    <message>
        <source>a masked cell&apos;s row must be a non-negative integer, got {0}</source>
        <translation>被掩码单元格的行号必须是非负整数，实际为 {0}</translation>
    </message>
    <message>
        <source>a masked cell&apos;s column must be a non-negative integer, got {0}</source>
        <translation>被掩码单元格的列号必须是非负整数，实际为 {0}</translation>
    </message>
    <message>
        <source>scaling</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>naive softmax</source>
        <translation>朴素 softmax</translation>
    </message>
    <message>
        <source>share W_Q = W_K</source>
        <translation>共享 W_Q = W_K</translation>
    </message>
    <message>
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <source>positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>RoPE base</source>
        <translation>RoPE 底数</translation>
    </message>
    <message>
        <source>RoPE pairs</source>
        <translation>RoPE 维度配对</translation>
    </message>
    <message>
        <source>window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>prefix</source>
        <translation>前缀</translation>
    </message>
    <message>
        <source>sinks</source>
        <translation>汇聚点</translation>
    </message>
    <message>
        <source>ALiBi</source>
        <translation>ALiBi</translation>
    </message>
    <message>
        <source>custom mask</source>
        <translation>自定义掩码</translation>
    </message>
    <message>
        <source>masked cells</source>
        <translation>已掩码的单元格</translation>
    </message>
    <message>
        <source>temperature must be a positive number, got {0}</source>
        <translation>温度（temperature）必须是正数，实际为 {0}</translation>
    </message>
    <message>
        <source>{0} must be one of {1}, got {2}</source>
        <translation>{0} 必须是 {1} 之一，实际为 {2}</translation>
    </message>
    <message>
        <source>rope_base must be a positive number, got {0}</source>
        <translation>rope_base 必须是正数，实际为 {0}</translation>
    </message>
    <message>
        <source>ALiBi slopes must be non-negative numbers, one per head, got {0}</source>
        <translation>ALiBi 斜率必须是非负数，每个头一个，实际为 {0}</translation>
    </message>
    <message>
        <source>a custom scale divisor must be a positive finite number, got {0}</source>
        <translation>自定义缩放除数必须是有限的正数，实际为 {0}</translation>
    </message>
    <message>
        <source>scale must be &apos;sqrt_dk&apos;, &apos;none&apos; or a positive number, got {0}</source>
        <translation>scale 必须是 &apos;sqrt_dk&apos;、&apos;none&apos; 或一个正数，实际为 {0}</translation>
    </message>
    <message>
        <source>X must be 2-D, got shape {0}</source>
        <translation>X 必须是二维的，实际形状为 {0}</translation>
    </message>
    <message>
        <source>{0} tokens but X has {1} rows</source>
        <translation>有 {0} 个词元，但 X 有 {1} 行</translation>
    </message>
    <message>
        <source>there must be at least one head</source>
        <translation>至少需要一个头</translation>
    </message>
    <message>
        <source>head {0} weights are {1}, expected {2}</source>
        <translation>头 {0} 的权重形状为 {1}，应为 {2}</translation>
    </message>
    <message>
        <source>mode must be &apos;self&apos; or &apos;cross&apos;, got {0}</source>
        <translation>mode 必须是 &apos;self&apos; 或 &apos;cross&apos;，实际为 {0}</translation>
    </message>
    <message>
        <source>X_kv must be n_kv × {0}, got {1}</source>
        <translation>X_kv 的形状必须是 n_kv × {0}，实际为 {1}</translation>
    </message>
    <message>
        <source>{0} key/value tokens but X_kv has {1} rows</source>
        <translation>有 {0} 个键/值词元，但 X_kv 有 {1} 行</translation>
    </message>
    <message>
        <source>cross mode needs a key/value sequence</source>
        <translation>交叉注意力模式需要一个键/值序列</translation>
    </message>
    <message>
        <source>W_O must be {0} × {1}, got {2}</source>
        <translation>W_O 的形状必须是 {0} × {1}，实际为 {2}</translation>
    </message>
    <message>
        <source>RoPE turns pairs of dimensions, so d_k must be even, got {0}</source>
        <translation>RoPE 成对旋转维度，所以 d_k 必须是偶数，现在是 {0}</translation>
    </message>
    <message>
        <source>{0} ALiBi slopes for {1} heads; there must be one per head</source>
        <translation>{1} 个头却有 {0} 个 ALiBi 斜率；每个头需要一个</translation>
    </message>
    <message>
        <source>the mask leaves the query “{0}” (row {1}) with no key to attend to</source>
        <translation>掩码使查询“{0}”（行 {1}）没有任何可关注的键</translation>
    </message>
    <message>
        <source>d_model must be at least 1</source>
        <translation>d_model 至少为 1</translation>
    </message>
    <message>
        <source>{0} has values beyond ±3.4e38, too large for float32; switch float32 off to compute in float64</source>
        <translation>{0} 含有超出 ±3.4e38 的值，float32 无法表示；请关闭 float32，改用 float64 计算</translation>
    </message>
    <message>
        <source>empty cell: type a number such as 0.5 or -1e-3</source>
        <translation>单元格为空：请输入数字，例如 0.5 或 -1e-3</translation>
    </message>
    <message>
        <source>not a number: the text is {0} characters long</source>
        <translation>不是数字：这段文字有 {0} 个字符</translation>
    </message>
    <message>
        <source>{0!r} is not allowed: only finite numbers can be used</source>
        <translation>{0!r} 不可用：只能使用有限的数</translation>
    </message>
    <message>
        <source>{0!r}: use a dot as the decimal separator (e.g. 1.5)</source>
        <translation>{0!r}：小数点请用英文句点（例如 1.5）</translation>
    </message>
    <message>
        <source>{0!r}: hexadecimal numbers are not accepted</source>
        <translation>{0!r}：不接受十六进制数</translation>
    </message>
    <message>
        <source>{0!r} is not a number: type e.g. 0.5 or -1e-3</source>
        <translation>{0!r} 不是数字：请输入例如 0.5 或 -1e-3</translation>
    </message>
    <message>
        <source>{0!r} is too large: the largest allowed magnitude is about 1.8e308</source>
        <translation>{0!r} 太大：允许的最大绝对值约为 1.8e308</translation>
    </message>
    <message>
        <source>{0} is smaller than the smallest float64 and was stored as 0</source>
        <translation>{0} 小于 float64 能表示的最小值，已存为 0</translation>
    </message>
    <message>
        <source>a token name cannot be empty</source>
        <translation>词元名称不能为空</translation>
    </message>
    <message>
        <source>a token name cannot contain control characters (newline, tab…)</source>
        <translation>词元名称不能包含控制字符（换行、制表符……）</translation>
    </message>
    <message>
        <source>a token name can have at most {0} characters, this one has {1}</source>
        <translation>词元名称最多 {0} 个字符，这个有 {1} 个</translation>
    </message>
    <message>
        <source>the clipboard holds no values to paste</source>
        <translation>剪贴板里没有可粘贴的数值</translation>
    </message>
    <message>
        <source>the paste has {0:,} rows; at most {1:,} tokens are allowed</source>
        <translation>粘贴的内容有 {0:,} 行；最多允许 {1:,} 个词元</translation>
    </message>
    <message>
        <source>the paste has {0:,} cells; at most {1:,} are allowed</source>
        <translation>粘贴的内容有 {0:,} 个单元格；最多允许 {1:,} 个</translation>
    </message>
    <message>
        <source>the pasted rows have different numbers of values ({0})</source>
        <translation>粘贴的各行数值个数不一致（{0}）</translation>
    </message>
    <message>
        <source>row {0}, column {1}: {2}</source>
        <translation>第 {0} 行、第 {1} 列：{2}</translation>
    </message>
    <message>
        <source>query {0} (row {1}) has no key left to attend to: the mask hides every key, and a softmax over nothing is undefined</source>
        <translation>查询 {0}（行 {1}）没有可关注的键：掩码遮住了所有键，而对空集合做 softmax 没有定义</translation>
    </message>
    <message>
        <source>{2} is too large: the scores q·k overflow {0} (its largest number is {1}). Smaller values of X or of the weights compute</source>
        <translation>{2} 太大：分数 q·k 超出了 {0} 的最大值（{1}）。把 X 或权重的值改小即可计算</translation>
    </message>
    <message>
        <source>{3} is too large: {0} = X·W_{0} overflows {1} (its largest number is {2}). Smaller values of X or of W_{0} compute</source>
        <translation>{3} 太大：{0} = X·W_{0} 超出了 {1} 的最大值（{2}）。把 X 或 W_{0} 的值改小即可计算</translation>
    </message>
    <message>
        <source>{0} of head {1}</source>
        <translation>头 {1} 的 {0}</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a string</source>
        <translation>{0} 是 {1}，应为字符串</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a non-negative integer</source>
        <translation>{0} 是 {1}，应为非负整数</translation>
    </message>
    <message>
        <source>{0} is {1}, expected true or false</source>
        <translation>{0} 是 {1}，应为 true 或 false</translation>
    </message>
    <message>
        <source>scope is {0}, expected &quot;head&quot; or &quot;layer&quot;</source>
        <translation>scope 是 {0}，应为 &quot;head&quot; 或 &quot;layer&quot;</translation>
    </message>
    <message>
        <source>weights is {0}, expected one of {1}</source>
        <translation>weights 是 {0}，应为 {1} 之一</translation>
    </message>
    <message>
        <source>unknown field &quot;{0}&quot;; expected {1}</source>
        <translation>未知字段“{0}”；应为 {1} 之一</translation>
    </message>
    <message>
        <source>no &quot;{0}&quot; field</source>
        <translation>没有 &quot;{0}&quot; 字段</translation>
    </message>
</context>
<context>
    <name>ExplainPanel</name>
    <message>
        <source>Click a cell of the weights (or QKᵀ, scaled) pane to see how it is computed; click it again to unpin.</source>
        <translation>点击权重面板（或 QKᵀ、缩放后分数面板）中的单元格，查看它是如何计算的；再次点击取消固定。</translation>
    </message>
    <message>
        <source>&lt;p&gt;The pinned cell is in {0}; this panel explains the attention cells.&lt;/p&gt;</source>
        <translation>&lt;p&gt;固定的单元格位于 {0}；本面板讲解的是注意力单元格。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>How is a weight computed?</source>
        <translation>注意力权重是如何计算的？</translation>
    </message>
    <message>
        <source> (head {0})</source>
        <translation>（头 {0}）</translation>
    </message>
    <message>
        <source>It is one coordinate of the query of &lt;b&gt;{0}&lt;/b&gt;: it enters every score of the row of {0} in QKᵀ, QKᵀ[{0}, k] = q&lt;sub&gt;{0}&lt;/sub&gt;·k&lt;sub&gt;k&lt;/sub&gt;.</source>
        <translation>它是 &lt;b&gt;{0}&lt;/b&gt; 的查询向量的一个分量：它进入 QKᵀ 中 {0} 这一行的每个分数，QKᵀ[{0}, k] = q&lt;sub&gt;{0}&lt;/sub&gt;·k&lt;sub&gt;k&lt;/sub&gt;。</translation>
    </message>
    <message>
        <source>It is one coordinate of the key of &lt;b&gt;{0}&lt;/b&gt;: it enters every score of the column of {0} in QKᵀ, QKᵀ[q, {0}] = q&lt;sub&gt;q&lt;/sub&gt;·k&lt;sub&gt;{0}&lt;/sub&gt;.</source>
        <translation>它是 &lt;b&gt;{0}&lt;/b&gt; 的键向量的一个分量：它进入 QKᵀ 中 {0} 这一列的每个分数，QKᵀ[q, {0}] = q&lt;sub&gt;q&lt;/sub&gt;·k&lt;sub&gt;{0}&lt;/sub&gt;。</translation>
    </message>
    <message>
        <source>It is what &lt;b&gt;{0}&lt;/b&gt; passes on in column {1}: every output row adds it, weighted: out[q, {1}] = Σ&lt;sub&gt;k&lt;/sub&gt; w[q → k]·V[k, {1}].</source>
        <translation>它是 &lt;b&gt;{0}&lt;/b&gt; 在第 {1} 列传递出去的内容：每一行输出都按权重加上它：out[q, {1}] = Σ&lt;sub&gt;k&lt;/sub&gt; w[q → k]·V[k, {1}]。</translation>
    </message>
    <message>
        <source>Row &lt;b&gt;{0}&lt;/b&gt; of {1} times column {2} of {3}: a dot product over the {4} input dimensions.</source>
        <translation>{1} 的 &lt;b&gt;{0}&lt;/b&gt; 这一行乘以 {3} 的第 {2} 列：在 {4} 个输入维度上做点积。</translation>
    </message>
    <message>
        <source>weight row</source>
        <translation>权重行</translation>
    </message>
    <message>
        <source>adds to</source>
        <translation>加到</translation>
    </message>
    <message>
        <source>Coordinate d{0} of the input vector of &lt;b&gt;{1}&lt;/b&gt;.</source>
        <translation>&lt;b&gt;{1}&lt;/b&gt; 的输入向量的第 d{0} 个分量。</translation>
    </message>
    <message>
        <source>Where it flows{0}</source>
        <translation>它流向哪里{0}</translation>
    </message>
    <message>
        <source>Row d{0} of each weight matrix multiplies it: it adds {1} × that row to the token&apos;s projections.</source>
        <translation>每个权重矩阵的第 d{0} 行与它相乘：它把 {1} × 这一行加到该词元的投影上。</translation>
    </message>
    <message>
        <source>From there into the scores of {0} (QKᵀ), its weights and the output; click a cell of Q, K or V to see one sum whole.</source>
        <translation>再从那里进入 {0} 的分数（QKᵀ）、它的权重和输出；点击 Q、K 或 V 的单元格可查看完整的一个求和。</translation>
    </message>
    <message>
        <source>Query &lt;b&gt;{0}&lt;/b&gt; (row {1}) looking at key &lt;b&gt;{2}&lt;/b&gt; (column {3}).</source>
        <translation>查询 &lt;b&gt;{0}&lt;/b&gt;（行 {1}）关注键 &lt;b&gt;{2}&lt;/b&gt;（列 {3}）。</translation>
    </message>
    <message>
        <source>1 · Score: the dot product q·k</source>
        <translation>1 · 分数：点积 q·k</translation>
    </message>
    <message>
        <source>{0} products, one per dimension of d_k = {0}.</source>
        <translation>共 {0} 个乘积：d_k = {0}，每个维度一个。</translation>
    </message>
    <message>
        <source>1 (no scaling)</source>
        <translation>1（不缩放）</translation>
    </message>
    <message>
        <source>{0} (custom divisor)</source>
        <translation>{0}（自定义除数）</translation>
    </message>
    <message>
        <source>2 · Scale: divide by the divisor and T</source>
        <translation>2 · 缩放：除以除数和温度 T</translation>
    </message>
    <message>
        <source>divisor = {0}, temperature T = {1}</source>
        <translation>除数 = {0}，温度 T = {1}</translation>
    </message>
    <message>
        <source>QKᵀ / (divisor · T)</source>
        <translation>QKᵀ / (除数 · T)</translation>
    </message>
    <message>
        <source>({0} decimals: at 4 the rounded numbers would not add up)</source>
        <translation>（显示 {0} 位小数：保留 4 位时，舍入后的数加起来对不上）</translation>
    </message>
    <message>
        <source>3 · Softmax over the row of {0}</source>
        <translation>3 · 对 {0} 所在的行做 softmax</translation>
    </message>
    <message>
        <source>row maximum m = max&lt;sub&gt;j&lt;/sub&gt; s[{0}, j] = {1}</source>
        <translation>行最大值 m = max&lt;sub&gt;j&lt;/sub&gt; s[{0}, j] = {1}</translation>
    </message>
    <message>
        <source>Subtracting it makes every exponent ≤ 0, so exp never overflows; the weights do not change.</source>
        <translation>减去它之后每个指数都 ≤ 0，exp 永远不会溢出；权重保持不变。</translation>
    </message>
    <message>
        <source>Naive softmax: the row maximum is not subtracted, so exp sees the scaled scores as they are; above {0} it overflows to ∞, and far below 0 it underflows to 0.</source>
        <translation>朴素 softmax：不减去行最大值，exp 直接作用于缩放后的分数；超过 {0} 时上溢为 ∞，远小于 0 时下溢为 0。</translation>
    </message>
    <message>
        <source>Overflow: exp(s) of this row reached ∞, so its sum is ∞ and ∞ / ∞ is NaN.</source>
        <translation>上溢：这一行的 exp(s) 达到 ∞，总和也是 ∞，而 ∞ / ∞ = NaN。</translation>
    </message>
    <message>
        <source>Underflow: every exp(s) of this row is 0 (the scores are far below 0), so the weight is 0 / 0 = NaN.</source>
        <translation>下溢：这一行的每个 exp(s) 都是 0（分数远小于 0），所以权重为 0 / 0 = NaN。</translation>
    </message>
    <message>
        <source>Turn the naive softmax off: with the row maximum subtracted the largest exponent is exp(0) = 1, and the same scores give finite weights.</source>
        <translation>关闭朴素 softmax：减去行最大值后，最大的指数项为 exp(0) = 1，同样的分数就能得到有限的权重。</translation>
    </message>
    <message numerus="yes">
        <source>… and %n keys with smaller weights</source>
        <translation>
            <numerusform>……以及另外 %n 个权重较小的键</numerusform>
        </translation>
    </message>
    <message>
        <source>The weights of a row are ≥ 0 and sum to 1, so the output is a weighted average of the value vectors.</source>
        <translation>一行的权重都 ≥ 0 且总和为 1，所以输出是各值向量的加权平均。</translation>
    </message>
    <message>
        <source>{0} masked key(s) add exp(−∞) = 0 to the sum.</source>
        <translation>{0} 个被掩码的键向总和贡献 exp(−∞) = 0。</translation>
    </message>
    <message>
        <source>&lt;p&gt;Click a cell of the &lt;b&gt;weights&lt;/b&gt; pane (or of QKᵀ or the scaled scores) to pin it. This panel then shows, with the real numbers of this session, every step from q·k to the output.&lt;/p&gt;&lt;p class=&apos;note&apos;&gt;Click the cell again to unpin it.&lt;/p&gt;</source>
        <translation>&lt;p&gt;点击&lt;b&gt;权重&lt;/b&gt;面板（或 QKᵀ、缩放后分数面板）中的单元格即可固定它。本面板随后会用当前会话的真实数值，展示从 q·k 到输出的每一步。&lt;/p&gt;&lt;p class=&apos;note&apos;&gt;再次点击该单元格取消固定。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>A cell of X shows where it flows, a cell of Q, K or V its dot product, a cell of the output its weighted sum.</source>
        <translation>X 的单元格展示它流向哪里，Q、K 或 V 的单元格展示它的点积，输出的单元格展示它的加权求和。</translation>
    </message>
    <message>
        <source>RoPE: q is the query turned by its position ({0}), k the key turned by its position ({1}); the positions enter the score only through their distance {0} − {1} = {2}.</source>
        <translation>RoPE：q 是按其位置（{0}）旋转后的查询，k 是按其位置（{1}）旋转后的键；位置只通过二者的距离 {0} − {1} = {2} 影响分数。</translation>
    </message>
    <message>
        <source>The score is replaced by −∞ before softmax, so the weight is exactly 0.</source>
        <translation>softmax 之前分数被替换为 −∞，所以权重恰好为 0。</translation>
    </message>
    <message>
        <source>ALiBi: the bias {0} lowers the score the further the key is from the query.</source>
        <translation>ALiBi：偏置 {0} 使键离查询越远，分数越低。</translation>
    </message>
    <message>
        <source>A masked key gets weight exactly 0.</source>
        <translation>被掩码的键的权重恰好为 0。</translation>
    </message>
    <message>
        <source>key j</source>
        <translation>键 j</translation>
    </message>
    <message>
        <source>4 · Output: the weighted sum of the V rows</source>
        <translation>4 · 输出：V 各行的加权求和</translation>
    </message>
    <message>
        <source>This row&apos;s weights sum to {0}, not 1: the naive softmax broke on it (the banner above the panes says how), so the output is no weighted average of the value vectors.</source>
        <translation>这一行的权重之和为 {0}，而不是 1：朴素 softmax 在这一行出错了（热图上方的横幅说明了原因），所以输出不是值向量的加权平均。</translation>
    </message>
    <message>
        <source>Pin a cell of the weights pane to see how each weight is computed.</source>
        <translation>固定权重面板中的单元格，查看每个权重是如何计算的。</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>a {0}×{1} px image is too large; lower the scale (limit {2} pixels, {3} px a side)</source>
        <translation>{0}×{1} 像素的图像太大；请降低缩放比例（上限 {2} 像素，每边 {3} 像素）</translation>
    </message>
</context>
<context>
    <name>ExportActions</name>
    <message>
        <source>Export figure of the &amp;dashboard…</source>
        <translation>导出总览图(&amp;D)……</translation>
    </message>
    <message>
        <source>All shown panes in one image (PNG, SVG or PDF)</source>
        <translation>把所有显示的面板放进一张图（PNG、SVG 或 PDF）</translation>
    </message>
    <message>
        <source>&amp;Export all…</source>
        <translation>全部导出(&amp;E)……</translation>
    </message>
    <message>
        <source>Every pane, the dashboard and the matrices into a folder (Ctrl+E)</source>
        <translation>把每个面板、总览图和矩阵导出到一个文件夹（Ctrl+E）</translation>
    </message>
    <message>
        <source>Export &amp;data…</source>
        <translation>导出数据(&amp;D)……</translation>
    </message>
    <message>
        <source>The matrices as CSV, NPY, NPZ or JSON</source>
        <translation>以 CSV、NPY、NPZ 或 JSON 格式导出矩阵</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>The current session could not be computed, so there is nothing to export; see the status bar.</source>
        <translation>当前会话无法计算，因此没有可导出的内容；详见状态栏。</translation>
    </message>
    <message>
        <source>Cannot export this pane: {0}</source>
        <translation>无法导出此面板：{0}</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG vector image (*.svg)</source>
        <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <source>{0} already exists. Replace it?</source>
        <translation>{0} 已存在。要替换它吗？</translation>
    </message>
    <message>
        <source>Could not export {0}: {1}. Nothing was written.</source>
        <translation>无法导出 {0}：{1}。没有写入任何文件。</translation>
    </message>
    <message>
        <source>Exported {0}</source>
        <translation>已导出 {0}</translation>
    </message>
    <message>
        <source>Cannot copy this pane: {0}</source>
        <translation>无法复制此面板：{0}</translation>
    </message>
    <message>
        <source>Copied {0} as a {1} × {2} px image</source>
        <translation>已将 {0} 复制为 {1} × {2} 像素的图像</translation>
    </message>
    <message>
        <source>{0} is not an existing folder. Nothing was written.</source>
        <translation>{0} 不是已存在的文件夹。没有写入任何文件。</translation>
    </message>
    <message>
        <source>Nothing was exported: {0}</source>
        <translation>没有导出任何内容：{0}</translation>
    </message>
    <message>
        <source>{0} of these files already exist in {1}: {2}. Replace them?</source>
        <translation>其中 {0} 个文件已存在于 {1}：{2}。要替换它们吗？</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n files to {0}</source>
        <translation>
            <numerusform>已将 %n 个文件导出到 {0}</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Writing {0}…</source>
        <translation>正在写入 {0}……</translation>
    </message>
    <message>
        <source>Export cancelled; nothing was written</source>
        <translation>导出已取消；没有写入任何文件</translation>
    </message>
    <message>
        <source>Moving the files into place…</source>
        <translation>正在把文件移动到位……</translation>
    </message>
    <message>
        <source>Could not export to {0}: {1}. Nothing was written.</source>
        <translation>无法导出到 {0}：{1}。没有写入任何文件。</translation>
    </message>
</context>
<context>
    <name>ExportAllDialog</name>
    <message>
        <source>Export all</source>
        <translation>全部导出</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>导出数据</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>文件夹(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)……</translation>
    </message>
    <message>
        <source>Figures (every pane and the dashboard)</source>
        <translation>图像（每个面板和总览图）</translation>
    </message>
    <message>
        <source>PNG &amp;scale:</source>
        <translation>PNG 缩放倍数(&amp;S)：</translation>
    </message>
    <message>
        <source>The PNG scale</source>
        <translation>PNG 缩放倍数</translation>
    </message>
    <message>
        <source>&amp;Background:</source>
        <translation>背景(&amp;B)：</translation>
    </message>
    <message>
        <source>Data (the numbers of every matrix)</source>
        <translation>数据（每个矩阵的数值）</translation>
    </message>
    <message>
        <source>One CSV per matrix, with token labels</source>
        <translation>每个矩阵一个 CSV 文件，带词元标签</translation>
    </message>
    <message>
        <source>One NumPy .npy per matrix</source>
        <translation>每个矩阵一个 NumPy .npy 文件</translation>
    </message>
    <message>
        <source>matrices.npz: every matrix and the tokens</source>
        <translation>matrices.npz：所有矩阵和词元</translation>
    </message>
    <message>
        <source>matrices.json: every matrix, the tokens and the options</source>
        <translation>matrices.json：所有矩阵、词元和选项</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Choose a folder</source>
        <translation>选择文件夹</translation>
    </message>
    <message>
        <source>{0}.png: {1}</source>
        <translation>{0}.png：{1}</translation>
    </message>
    <message>
        <source>Choose a folder.</source>
        <translation>请选择一个文件夹。</translation>
    </message>
    <message>
        <source>Choose at least one format.</source>
        <translation>请至少选择一种格式。</translation>
    </message>
    <message numerus="yes">
        <source>Writes %n files into the folder, all together or none.</source>
        <translation>
            <numerusform>向文件夹写入 %n 个文件，要么全部写入，要么都不写入。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FigureOptionsDialog</name>
    <message>
        <source>Export options: {0}</source>
        <translation>导出选项：{0}</translation>
    </message>
    <message>
        <source>&amp;Scale:</source>
        <translation>缩放倍数(&amp;S)：</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>尺寸：</translation>
    </message>
    <message>
        <source>&amp;Background:</source>
        <translation>背景(&amp;B)：</translation>
    </message>
    <message>
        <source>The PNG scale</source>
        <translation>PNG 缩放倍数</translation>
    </message>
    <message>
        <source>PNG pixels per point: 2× suits slides and print</source>
        <translation>PNG 每磅的像素数：2× 适合幻灯片和打印</translation>
    </message>
    <message>
        <source>SVG and PDF are vector formats: sharp at any size</source>
        <translation>SVG 和 PDF 是矢量格式：任何尺寸下都清晰</translation>
    </message>
    <message>
        <source>{0} × {1} pt (vector)</source>
        <translation>{0} × {1} 磅（矢量）</translation>
    </message>
    <message>
        <source>{0} × {1} px</source>
        <translation>{0} × {1} 像素</translation>
    </message>
    <message>
        <source>{0} × {1} px is too large; lower the scale</source>
        <translation>{0} × {1} 像素太大；请降低缩放倍数</translation>
    </message>
</context>
<context>
    <name>Figures</name>
    <message>
        <source>masked</source>
        <translation>已掩码</translation>
    </message>
    <message>
        <source>non-finite</source>
        <translation>非有限值</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>{0} tokens</source>
        <translation>{0} 个词元</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>head {0} of {1}</source>
        <translation>头 {0}（共 {1} 个）</translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>Start a new session from the tutorial example</source>
        <translation>从教程示例开始一个新会话</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)……</translation>
    </message>
    <message>
        <source>Open a session file (.qkv.json)</source>
        <translation>打开会话文件（.qkv.json）</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)……</translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation>还原(&amp;V)</translation>
    </message>
    <message>
        <source>Discard changes since the last save</source>
        <translation>放弃上次保存以来的更改</translation>
    </message>
    <message>
        <source>Import token vectors…</source>
        <translation>导入词元向量……</translation>
    </message>
    <message>
        <source>Read X from CSV, TSV or .npy</source>
        <translation>从 CSV、TSV 或 .npy 读取 X</translation>
    </message>
    <message>
        <source>Import weights…</source>
        <translation>导入权重……</translation>
    </message>
    <message>
        <source>Read W_Q, W_K, W_V from .npz or .npy</source>
        <translation>从 .npz 或 .npy 读取 W_Q、W_K、W_V</translation>
    </message>
    <message>
        <source>QKV Desktop</source>
        <translation>QKV Desktop</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>{0} has unsaved changes. Save them first?</source>
        <translation>“{0}”有未保存的更改。要先保存吗？</translation>
    </message>
    <message>
        <source>{0}{1} — QKV Desktop</source>
        <translation>{0}{1} — QKV Desktop</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>QKV sessions (*{0});;All files (*)</source>
        <translation>QKV 会话 (*{0});;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>QKV sessions (*{0})</source>
        <translation>QKV 会话 (*{0})</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>已保存 {0}</translation>
    </message>
    <message>
        <source>Discard all changes since {0} was saved?</source>
        <translation>放弃 {0} 上次保存以来的所有更改吗？</translation>
    </message>
    <message>
        <source>Import token vectors</source>
        <translation>导入词元向量</translation>
    </message>
    <message>
        <source>Vectors (*.csv *.tsv *.txt *.npy);;All files (*)</source>
        <translation>向量 (*.csv *.tsv *.txt *.npy);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import weights</source>
        <translation>导入权重</translation>
    </message>
    <message>
        <source>Weights (*.npz *.npy);;All files (*)</source>
        <translation>权重 (*.npz *.npy);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>Files</name>
    <message>
        <source>the layer must be an integer, got {0}</source>
        <translation>层号必须是整数，实际为 {0}</translation>
    </message>
    <message>
        <source>the head must be an integer, got {0}</source>
        <translation>头的编号必须是整数，实际为 {0}</translation>
    </message>
    <message>
        <source>layer {0} is out of range: {1} has layers 0 … {2}</source>
        <translation>层 {0} 超出范围：{1} 的层为 0 … {2}</translation>
    </message>
    <message>
        <source>head {0} is out of range: {1} has heads 0 … {2}</source>
        <translation>头 {0} 超出范围：{1} 的头为 0 … {2}</translation>
    </message>
    <message>
        <source>checkpoint folder {0} does not exist</source>
        <translation>检查点文件夹 {0} 不存在</translation>
    </message>
    <message>
        <source>{0}: cannot read ({1})</source>
        <translation>{0}：无法读取（{1}）</translation>
    </message>
    <message>
        <source>text must be a string, got {0}</source>
        <translation>文本必须是字符串，实际为 {0}</translation>
    </message>
    <message>
        <source>text is empty</source>
        <translation>文本为空</translation>
    </message>
    <message>
        <source>text {0} has no tokens the tokenizer keeps</source>
        <translation>文本 {0} 中没有分词器会保留的词元</translation>
    </message>
    <message>
        <source>text has {0} tokens; {1} accepts at most {2}</source>
        <translation>文本有 {0} 个词元；{1} 最多接受 {2} 个</translation>
    </message>
    <message>
        <source>the tokenizer produced id {0}, outside the model&apos;s vocabulary of {1}</source>
        <translation>分词器产生了编号 {0}，超出了模型 {1} 个词的词表</translation>
    </message>
    <message>
        <source>{0}: tensor {1} changed shape to {2} since the checkpoint was opened</source>
        <translation>{0}：打开检查点后，张量 {1} 的形状变成了 {2}</translation>
    </message>
    <message>
        <source>{0}: cannot read {1} ({2})</source>
        <translation>{0}：无法读取 {1}（{2}）</translation>
    </message>
    <message>
        <source>opening a model checkpoint needs the packages safetensors and tokenizers: {0}</source>
        <translation>打开模型检查点需要 safetensors 和 tokenizers 这两个包：{0}</translation>
    </message>
    <message>
        <source>{0} is missing from {1}</source>
        <translation>{1} 中缺少 {0}</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>expected a text file</source>
        <translation>应为文本文件</translation>
    </message>
    <message>
        <source>{0}: invalid JSON at line {1}, column {2}: {3}</source>
        <translation>{0}：第 {1} 行第 {2} 列处的 JSON 无效：{3}</translation>
    </message>
    <message>
        <source>{0}: nested too deeply to be a configuration file</source>
        <translation>{0}：嵌套层数过深，不可能是配置文件</translation>
    </message>
    <message>
        <source>{0}: expected a JSON object, got {1}</source>
        <translation>{0}：应为 JSON 对象，实际为 {1}</translation>
    </message>
    <message>
        <source>{0}: {1} must be {2}, got {3}</source>
        <translation>{0}：{1} 必须是{2}，实际为 {3}</translation>
    </message>
    <message>
        <source>{0}: model_type {1} is not supported; only BERT encoders (model_type &apos;bert&apos;, e.g. bert-base-uncased, all-MiniLM-L6-v2) can be opened</source>
        <translation>{0}：不支持 model_type {1}；只能打开 BERT 编码器（model_type &apos;bert&apos;，例如 bert-base-uncased、all-MiniLM-L6-v2）</translation>
    </message>
    <message>
        <source>{0}: is_decoder is true; only BERT encoders are supported</source>
        <translation>{0}：is_decoder 为 true；只支持 BERT 编码器</translation>
    </message>
    <message>
        <source>{0}: {1} {2} is not supported (only {3})</source>
        <translation>{0}：不支持 {1} {2}（只支持 {3}）</translation>
    </message>
    <message>
        <source>{0}: {1} must be an integer ≥ {2}, got {3}</source>
        <translation>{0}：{1} 必须是 ≥ {2} 的整数，实际为 {3}</translation>
    </message>
    <message>
        <source>{0}: hidden_size {1} is not divisible by num_attention_heads {2}</source>
        <translation>{0}：hidden_size {1} 不能被 num_attention_heads {2} 整除</translation>
    </message>
    <message>
        <source>{0}: layer_norm_eps must be a small positive number, got {1}</source>
        <translation>{0}：layer_norm_eps 必须是一个很小的正数，实际为 {1}</translation>
    </message>
    <message>
        <source>; sharded checkpoints are not supported</source>
        <translation>；不支持分片的检查点</translation>
    </message>
    <message>
        <source>; pytorch_model.bin is not read (it needs pickle): convert it to safetensors</source>
        <translation>；不读取 pytorch_model.bin（它需要 pickle）：请把它转换为 safetensors</translation>
    </message>
    <message>
        <source>model.safetensors is missing from {0}{1}</source>
        <translation>{0} 中缺少 model.safetensors{1}</translation>
    </message>
    <message>
        <source>{0}: missing tensor {1}</source>
        <translation>{0}：缺少张量 {1}</translation>
    </message>
    <message>
        <source>{0}: missing tensors {1}</source>
        <translation>{0}：缺少张量 {1}</translation>
    </message>
    <message>
        <source>{0}: missing tensors {1} and {2} more</source>
        <translation>{0}：缺少张量 {1} 等，另有 {2} 个</translation>
    </message>
    <message>
        <source>{0}: no BERT embeddings found (expected a tensor {1} or &apos;bert.{2}&apos;)</source>
        <translation>{0}：找不到 BERT 嵌入（应有张量 {1} 或 &apos;bert.{2}&apos;）</translation>
    </message>
    <message>
        <source>{0}: tensor {1} has shape {2}, but config.json implies {3}</source>
        <translation>{0}：张量 {1} 的形状为 {2}，但按 config.json 应为 {3}</translation>
    </message>
    <message>
        <source>{0}: tensor {1} is stored as {2}; only F16, F32 and F64 can be read (convert the checkpoint to float32)</source>
        <translation>{0}：张量 {1} 以 {2} 存储；只能读取 F16、F32 和 F64（请把检查点转换为 float32）</translation>
    </message>
    <message>
        <source>{0}: config.json claims {1} layers (num_hidden_layers), but the file holds tensors of {2}</source>
        <translation>{0}：config.json 声明有 {1} 层（num_hidden_layers），但文件只含 {2} 层的张量</translation>
    </message>
    <message>
        <source>{0}: tensor {1} has a non-finite value in row {2}</source>
        <translation>{0}：张量 {1} 的第 {2} 行含有非有限值</translation>
    </message>
    <message>
        <source>{0}: not a valid tokenizer ({1})</source>
        <translation>{0}：不是有效的分词器（{1}）</translation>
    </message>
    <message>
        <source>{0} has neither tokenizer.json nor vocab.txt</source>
        <translation>{0} 中既没有 tokenizer.json 也没有 vocab.txt</translation>
    </message>
    <message>
        <source>{0}: no post-processor and no {1} / {2} tokens to add</source>
        <translation>{0}：没有后处理器，也没有可添加的 {1} / {2} 词元</translation>
    </message>
    <message>
        <source>{0} is empty</source>
        <translation>{0} 是空的</translation>
    </message>
    <message>
        <source>{0}: the {1} {2} is not in the vocabulary</source>
        <translation>{0}：{1} {2} 不在词表中</translation>
    </message>
    <message>
        <source>a string or {0}</source>
        <translation>字符串或 {0}</translation>
    </message>
    <message>
        <source>{0}: {1}.content must be a string</source>
        <translation>{0}：{1}.content 必须是字符串</translation>
    </message>
    <message>
        <source>the file does not exist ({0})</source>
        <translation>文件不存在（{0}）</translation>
    </message>
    <message>
        <source>cannot be opened: {0}</source>
        <translation>无法打开：{0}</translation>
    </message>
    <message>
        <source>is not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>is {0}; files over {1} are refused</source>
        <translation>大小为 {0}；超过 {1} 的文件不予读取</translation>
    </message>
    <message>
        <source>cannot be read: {0}</source>
        <translation>无法读取：{0}</translation>
    </message>
    <message>
        <source>is over {0}; files that large are refused</source>
        <translation>超过 {0}；这么大的文件不予读取</translation>
    </message>
    <message>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <source>there is no such file or folder</source>
        <translation>没有这个文件或文件夹</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>没有访问权限</translation>
    </message>
    <message>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <source>the disk or folder is read-only</source>
        <translation>磁盘或文件夹是只读的</translation>
    </message>
    <message>
        <source>a file or folder of that name already exists</source>
        <translation>已有同名的文件或文件夹</translation>
    </message>
    <message>
        <source>it is a folder, not a file</source>
        <translation>这是文件夹，不是文件</translation>
    </message>
    <message>
        <source>a part of the path is not a folder</source>
        <translation>路径中有一部分不是文件夹</translation>
    </message>
    <message>
        <source>the name is too long</source>
        <translation>名称太长</translation>
    </message>
    <message>
        <source>you are over your disk quota</source>
        <translation>已超出你的磁盘配额</translation>
    </message>
    <message>
        <source>too many files are open; close some programs and try again</source>
        <translation>打开的文件太多；请关闭一些程序后重试</translation>
    </message>
    <message>
        <source>input/output error: the disk or the connection to it failed</source>
        <translation>输入/输出错误：磁盘或与它的连接出了故障</translation>
    </message>
    <message>
        <source>the file or folder is in use</source>
        <translation>文件或文件夹正被占用</translation>
    </message>
    <message>
        <source>it cannot be moved to another disk</source>
        <translation>无法移动到另一个磁盘</translation>
    </message>
    <message>
        <source>is not UTF-8 text (byte {0} at offset {1}); {2}</source>
        <translation>不是 UTF-8 文本（偏移 {1} 处的字节 {0}）；{2}</translation>
    </message>
    <message>
        <source>contains binary data (NUL bytes); {0}</source>
        <translation>含有二进制数据（NUL 字节）；{0}</translation>
    </message>
    <message>
        <source>unsupported file type {0}; use {1}</source>
        <translation>不支持的文件类型 {0}；请使用 {1}</translation>
    </message>
    <message>
        <source>holds a {0}-D array of shape {1}; expected a 2-D array (tokens × d_model)</source>
        <translation>存放的是形状为 {1} 的 {0} 维数组；应为二维数组（词元 × d_model）</translation>
    </message>
    <message>
        <source>holds an empty array of shape {0}</source>
        <translation>存放的是形状为 {0} 的空数组</translation>
    </message>
    <message>
        <source>expected text with one token per line</source>
        <translation>应为每行一个词元的文本</translation>
    </message>
    <message>
        <source>is empty; expected one line of numbers per token</source>
        <translation>是空的；应为每个词元一行数字</translation>
    </message>
    <message>
        <source>has a header line but no lines of numbers</source>
        <translation>只有表头行，没有数字行</translation>
    </message>
    <message>
        <source>the header (line {0}) has {1} cells but line {2} has {3}</source>
        <translation>表头（第 {0} 行）有 {1} 个单元格，但第 {2} 行有 {3} 个</translation>
    </message>
    <message>
        <source>line {0} has no numbers after the token name</source>
        <translation>第 {0} 行的词元名称后面没有数字</translation>
    </message>
    <message>
        <source>line {0} has {1} cells, expected {2} (as on line {3})</source>
        <translation>第 {0} 行有 {1} 个单元格，应为 {2} 个（与第 {3} 行相同）</translation>
    </message>
    <message>
        <source>line {0}, column 1: the token name is empty</source>
        <translation>第 {0} 行第 1 列：词元名称为空</translation>
    </message>
    <message>
        <source>line {0}, column 1: the token name has {1} characters; at most {2} are allowed</source>
        <translation>第 {0} 行第 1 列：词元名称有 {1} 个字符；最多允许 {2} 个</translation>
    </message>
    <message>
        <source>line {0}: {1}</source>
        <translation>第 {0} 行：{1}</translation>
    </message>
    <message>
        <source>line {0}, column {1}</source>
        <translation>第 {0} 行第 {1} 列</translation>
    </message>
    <message>
        <source>{0} is empty, expected a number</source>
        <translation>{0}为空，应为一个数字</translation>
    </message>
    <message>
        <source>{0} is &quot;{1}&quot;; only finite numbers are allowed</source>
        <translation>{0}是“{1}”；只允许有限数值</translation>
    </message>
    <message>
        <source>{0} is &quot;{1}&quot;, expected a number (with &quot;.&quot; as the decimal mark)</source>
        <translation>{0}是“{1}”，应为一个数字（以“.”作小数点）</translation>
    </message>
    <message>
        <source>{0} is {1}, too large for a 64-bit float; only finite numbers are allowed</source>
        <translation>{0}是 {1}，超出 64 位浮点数的范围；只允许有限数值</translation>
    </message>
    <message>
        <source>holds an array of shape {0}; expected {1} (W_Q, W_K, W_V stacked, each d_model × d_k) or {2}</source>
        <translation>存放的数组形状为 {0}；应为 {1}（W_Q、W_K、W_V 叠在一起，各为 d_model × d_k）或 {2}</translation>
    </message>
    <message>
        <source>(heads, 3, {0}, {1})</source>
        <translation>(头数, 3, {0}, {1})</translation>
    </message>
    <message>
        <source>stack</source>
        <translation>叠放数组</translation>
    </message>
    <message>
        <source>is not a valid .npz archive ({0})</source>
        <translation>不是有效的 .npz 归档（{0}）</translation>
    </message>
    <message>
        <source>{0} is encrypted; only plain .npz archives (numpy.savez) can be imported</source>
        <translation>{0} 已加密；只能导入普通的 .npz 归档（numpy.savez）</translation>
    </message>
    <message>
        <source>{0} uses an unsupported compression method {1}; save it with numpy.savez or numpy.savez_compressed</source>
        <translation>{0} 使用了不支持的压缩方法 {1}；请用 numpy.savez 或 numpy.savez_compressed 保存</translation>
    </message>
    <message>
        <source>holds an array named &quot;{0}&quot;; expected W_Q, W_K, W_V and optionally b_Q, b_K, b_V</source>
        <translation>含有名为“{0}”的数组；应为 W_Q、W_K、W_V，以及可选的 b_Q、b_K、b_V</translation>
    </message>
    <message>
        <source>has no array named &quot;{0}&quot;</source>
        <translation>没有名为“{0}”的数组</translation>
    </message>
    <message>
        <source>{0} has shape {1}, expected {2} ({3})</source>
        <translation>{0} 的形状为 {1}，应为 {2}（{3}）</translation>
    </message>
    <message>
        <source>heads × {0}</source>
        <translation>头数 × {0}</translation>
    </message>
    <message>
        <source>{0}: unsupported .npy format version {1}</source>
        <translation>{0}：不支持的 .npy 格式版本 {1}</translation>
    </message>
    <message>
        <source>{0} is not a valid .npy array ({1})</source>
        <translation>{0} 不是有效的 .npy 数组（{1}）</translation>
    </message>
    <message>
        <source>{0} holds Python objects (dtype {1}); only arrays of numbers can be imported</source>
        <translation>{0} 存放的是 Python 对象（dtype {1}）；只能导入数字数组</translation>
    </message>
    <message>
        <source>{0} has dtype {1}; only real numbers (float or integer) can be imported</source>
        <translation>{0} 的 dtype 为 {1}；只能导入实数（浮点数或整数）</translation>
    </message>
    <message>
        <source>{0} is truncated: its header promises {1} bytes but there are {2}</source>
        <translation>{0} 不完整：文件头声明有 {1} 字节，实际只有 {2} 字节</translation>
    </message>
    <message>
        <source>{0} is damaged ({1})</source>
        <translation>{0} 已损坏（{1}）</translation>
    </message>
    <message>
        <source>{0}[{1}] is {2}; only finite numbers are allowed</source>
        <translation>{0}[{1}] 是 {2}；只允许有限数值</translation>
    </message>
    <message>
        <source>{0} is {1}; only finite numbers are allowed</source>
        <translation>{0} 是 {1}；只允许有限数值</translation>
    </message>
    <message>
        <source>the session would be a file of {0} MB, and session files over {1} MB cannot be opened again; export its matrices as data (.npz) instead</source>
        <translation>会话文件将有 {0} MB，而超过 {1} MB 的会话文件无法再次打开；请改为把它的矩阵导出为数据（.npz）</translation>
    </message>
    <message>
        <source>the key &quot;{0}&quot; appears twice in one object</source>
        <translation>键名“{0}”在同一个对象中出现了两次</translation>
    </message>
    <message>
        <source>an integer of {0} digits</source>
        <translation>一个 {0} 位的整数</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件是空的</translation>
    </message>
    <message>
        <source>it is not a session file</source>
        <translation>它不是会话文件</translation>
    </message>
    <message>
        <source>; the file looks truncated</source>
        <translation>；文件似乎不完整</translation>
    </message>
    <message>
        <source>; the file is damaged or not a session file</source>
        <translation>；文件已损坏，或不是会话文件</translation>
    </message>
    <message>
        <source>is not valid JSON: {0} at line {1}, column {2}{3}</source>
        <translation>不是有效的 JSON：第 {1} 行第 {2} 列处{0}{3}</translation>
    </message>
    <message>
        <source>is nested too deeply to be a session file</source>
        <translation>嵌套层数过深，不可能是会话文件</translation>
    </message>
    <message>
        <source>Expecting value</source>
        <translation>缺少一个值</translation>
    </message>
    <message>
        <source>Expecting property name enclosed in double quotes</source>
        <translation>缺少用双引号括起的键名</translation>
    </message>
    <message>
        <source>Expecting &apos;:&apos; delimiter</source>
        <translation>缺少 &apos;:&apos;</translation>
    </message>
    <message>
        <source>Expecting &apos;,&apos; delimiter</source>
        <translation>缺少 &apos;,&apos;</translation>
    </message>
    <message>
        <source>Extra data</source>
        <translation>在 JSON 结束之后还有多余内容</translation>
    </message>
    <message>
        <source>Unterminated string starting at</source>
        <translation>有一个字符串没有结束</translation>
    </message>
    <message>
        <source>Invalid control character at</source>
        <translation>有一个字符串含有控制字符</translation>
    </message>
    <message>
        <source>Invalid \escape</source>
        <translation>有无效的 \ 转义</translation>
    </message>
    <message>
        <source>Invalid \uXXXX escape</source>
        <translation>有无效的 \uXXXX 转义</translation>
    </message>
    <message>
        <source>unknown field &quot;{0}&quot; for a version {1} session</source>
        <translation>版本 {1} 的会话没有字段“{0}”</translation>
    </message>
    <message>
        <source>the top level is {0}, expected a JSON object with &quot;format&quot;: &quot;{1}&quot;</source>
        <translation>顶层是 {0}，应为含有 &quot;format&quot;: &quot;{1}&quot; 的 JSON 对象</translation>
    </message>
    <message>
        <source>has no &quot;format&quot; field; it is not a QKV Desktop session</source>
        <translation>没有 &quot;format&quot; 字段；它不是 QKV Desktop 会话</translation>
    </message>
    <message>
        <source>unknown format {0}; expected &quot;{1}&quot;</source>
        <translation>未知格式 {0}；应为 &quot;{1}&quot;</translation>
    </message>
    <message>
        <source>has no &quot;version&quot; field</source>
        <translation>没有 &quot;version&quot; 字段</translation>
    </message>
    <message>
        <source>version is {0}, expected an integer</source>
        <translation>version 是 {0}，应为整数</translation>
    </message>
    <message>
        <source>version {0} is newer than this app can read (up to {1}); update QKV Desktop to open it</source>
        <translation>版本 {0} 比本应用能读取的版本（最高 {1}）更新；请更新 QKV Desktop 后再打开</translation>
    </message>
    <message>
        <source>unknown version {0}</source>
        <translation>未知版本 {0}</translation>
    </message>
    <message>
        <source>the field &quot;weights&quot; is missing</source>
        <translation>缺少字段 &quot;weights&quot;</translation>
    </message>
    <message>
        <source>unknown option &quot;{0}&quot; for a version 2 session</source>
        <translation>版本 2 的会话没有选项“{0}”</translation>
    </message>
    <message>
        <source>{0} tokens but X has {1} rows; there must be one row per token</source>
        <translation>有 {0} 个词元，但 X 有 {1} 行；每个词元必须对应一行</translation>
    </message>
    <message>
        <source>d_k is {0}, expected a positive integer</source>
        <translation>d_k 是 {0}，应为正整数</translation>
    </message>
    <message>
        <source>mode is {0}, expected &quot;self&quot; or &quot;cross&quot;</source>
        <translation>mode 是 {0}，应为 &quot;self&quot; 或 &quot;cross&quot;</translation>
    </message>
    <message>
        <source>X_kv rows have {0}, expected {1} (d_model, the length of each X row)</source>
        <translation>X_kv 的行有 {0}，应为 {1} 个（d_model，即 X 每行的长度）</translation>
    </message>
    <message>
        <source>{0} kv_tokens but X_kv has {1} rows; there must be one row per key/value token</source>
        <translation>有 {0} 个 kv_tokens，但 X_kv 有 {1} 行；每个键/值词元必须对应一行</translation>
    </message>
    <message>
        <source>mode is &quot;cross&quot; but X_kv is missing; cross-attention needs a key/value sequence</source>
        <translation>mode 是 &quot;cross&quot;，但缺少 X_kv；交叉注意力需要一个键/值序列</translation>
    </message>
    <message>
        <source>heads is {0}, expected a list of heads</source>
        <translation>heads 是 {0}，应为由头组成的列表</translation>
    </message>
    <message>
        <source>heads is empty; a session needs at least one head</source>
        <translation>heads 为空；会话至少需要一个头</translation>
    </message>
    <message>
        <source>layout is {0}, expected a JSON object</source>
        <translation>layout 是 {0}，应为 JSON 对象</translation>
    </message>
    <message>
        <source>layout.head is {0}, but the session&apos;s heads are numbered 0 to {1}</source>
        <translation>layout.head 是 {0}，但会话的头编号为 0 到 {1}</translation>
    </message>
    <message>
        <source>the field &quot;{0}&quot; is missing</source>
        <translation>缺少字段“{0}”</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a list of strings</source>
        <translation>{0} 是 {1}，应为字符串列表</translation>
    </message>
    <message>
        <source>{0} is empty; a session needs at least one token</source>
        <translation>{0} 为空；会话至少需要一个词元</translation>
    </message>
    <message>
        <source>{0}[{1}] is {2}, expected a non-empty string</source>
        <translation>{0}[{1}] 是 {2}，应为非空字符串</translation>
    </message>
    <message>
        <source>{0}[{1}] is an empty string; every token needs a name</source>
        <translation>{0}[{1}] 是空字符串；每个词元都需要名称</translation>
    </message>
    <message>
        <source>{0}[{1}] has {2} characters; a token name can have at most {3}</source>
        <translation>{0}[{1}] 有 {2} 个字符；词元名称最多 {3} 个字符</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a list of rows (lists of numbers)</source>
        <translation>{0} 是 {1}，应为由行（数字列表）组成的列表</translation>
    </message>
    <message>
        <source>{0} is empty; it needs at least one row</source>
        <translation>{0} 为空；至少需要一行</translation>
    </message>
    <message>
        <source>{0}[{1}] is {2}, expected a row (a list of numbers)</source>
        <translation>{0}[{1}] 是 {2}，应为一行（数字列表）</translation>
    </message>
    <message>
        <source>{0} row 0 is empty; rows need at least one value</source>
        <translation>{0} 的第 0 行为空；每行至少需要一个值</translation>
    </message>
    <message>
        <source>{0} row {1} has {2}, expected {3}</source>
        <translation>{0} 的第 {1} 行有 {2}，应为 {3} 个</translation>
    </message>
    <message>
        <source>{0} has {1} rows, expected {2} ({3})</source>
        <translation>{0} 有 {1} 行，应为 {2} 行（{3}）</translation>
    </message>
    <message>
        <source>{0} row {1} has {2}, expected {3} ({4})</source>
        <translation>{0} 的第 {1} 行有 {2}，应为 {3} 个（{4}）</translation>
    </message>
    <message>
        <source>{0} is {1}, expected null or a list of {2} numbers</source>
        <translation>{0} 是 {1}，应为 null 或由 {2} 个数字组成的列表</translation>
    </message>
    <message>
        <source>{0} has {1}, expected {2} (d_k)</source>
        <translation>{0} 有 {1}，应为 {2} 个（d_k）</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a number</source>
        <translation>{0} 是 {1}，应为数字</translation>
    </message>
    <message>
        <source>{0} is {1}, expected an object with W_Q, W_K, W_V</source>
        <translation>{0} 是 {1}，应为含有 W_Q、W_K、W_V 的对象</translation>
    </message>
    <message>
        <source>unknown field &quot;{0}&quot; in {1}; expected {2}</source>
        <translation>{1} 中有未知字段“{0}”；应为 {2} 之一</translation>
    </message>
    <message>
        <source>{0} has no &quot;{1}&quot;</source>
        <translation>{0} 中没有 &quot;{1}&quot;</translation>
    </message>
    <message>
        <source>init is {0}, expected an object with seed and scale</source>
        <translation>init 是 {0}，应为含有 seed 和 scale 的对象</translation>
    </message>
    <message>
        <source>unknown field &quot;{0}&quot; in init; expected seed, scale</source>
        <translation>init 中有未知字段“{0}”；应为 seed、scale</translation>
    </message>
    <message>
        <source>init.seed is {0}, expected an integer from 0 to {1}</source>
        <translation>init.seed 是 {0}，应为 0 到 {1} 之间的整数</translation>
    </message>
    <message>
        <source>options is {0}, expected an object</source>
        <translation>options 是 {0}，应为对象</translation>
    </message>
    <message>
        <source>unknown option &quot;{0}&quot;; known options: {1}</source>
        <translation>未知选项“{0}”；已知选项：{1}</translation>
    </message>
    <message>
        <source>{0} is {1}, expected &quot;sqrt_dk&quot;, &quot;none&quot; or a positive number</source>
        <translation>{0} 是 {1}，应为 &quot;sqrt_dk&quot;、&quot;none&quot; 或一个正数</translation>
    </message>
    <message>
        <source>expected &quot;sqrt_dk&quot;, &quot;none&quot; or a positive number</source>
        <translation>应为 &quot;sqrt_dk&quot;、&quot;none&quot; 或一个正数</translation>
    </message>
    <message>
        <source>expected a positive number</source>
        <translation>应为正数</translation>
    </message>
    <message>
        <source>{0} is {1}, expected true or false</source>
        <translation>{0} 是 {1}，应为 true 或 false</translation>
    </message>
    <message>
        <source>{0} is {1}, expected {2}</source>
        <translation>{0} 是 {1}，应为 {2}</translation>
    </message>
    <message>
        <source>{0} is {1}, expected null or a list of slopes, one per head</source>
        <translation>{0} 是 {1}，应为 null 或斜率列表（每个头一个）</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a list of [row, column] pairs</source>
        <translation>{0} 是 {1}，应为由 [行, 列] 对组成的列表</translation>
    </message>
    <message>
        <source>options: {0}</source>
        <translation>options：{0}</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a positive integer or null</source>
        <translation>{0} 是 {1}，应为正整数或 null</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a positive integer</source>
        <translation>{0} 是 {1}，应为正整数</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a non-negative integer or null</source>
        <translation>{0} 是 {1}，应为非负整数或 null</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a non-negative integer</source>
        <translation>{0} 是 {1}，应为非负整数</translation>
    </message>
    <message>
        <source>{0} is &quot;float32&quot;, but {1}</source>
        <translation>{0} 是 &quot;float32&quot;，但{1}</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a non-negative number</source>
        <translation>{0} 是 {1}，应为非负数</translation>
    </message>
    <message>
        <source>{0} is {1}, expected a [row, column] pair</source>
        <translation>{0} 是 {1}，应为一个 [行, 列] 对</translation>
    </message>
    <message>
        <source>model is {0}, expected a JSON object</source>
        <translation>model 是 {0}，应为 JSON 对象</translation>
    </message>
    <message>
        <source>model.{0} is {1}, expected {2}</source>
        <translation>model.{0} 是 {1}，应为{2}</translation>
    </message>
    <message>
        <source>model: {0}</source>
        <translation>model：{0}</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a non-negative integer</source>
        <translation>非负整数</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>d_model, the length of each X row</source>
        <translation>d_model，即 X 每行的长度</translation>
    </message>
    <message>
        <source>{0} is {1}, {2}</source>
        <translation>{0} 是 {1}，{2}</translation>
    </message>
    <message>
        <source>{0} or {1}</source>
        <translation>{0} 或 {1}</translation>
    </message>
    <message>
        <source>1 value</source>
        <translation>1 个值</translation>
    </message>
    <message>
        <source>{0} values</source>
        <translation>{0} 个值</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>一个对象</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>一个列表</translation>
    </message>
    <message>
        <source>an integer of about {0} digits</source>
        <translation>一个约 {0} 位的整数</translation>
    </message>
    <message>
        <source>model file {0} does not exist</source>
        <translation>模型文件 {0} 不存在</translation>
    </message>
    <message>
        <source>{0}: not a readable GGUF file ({1})</source>
        <translation>{0}：不是可读取的 GGUF 文件（{1}）</translation>
    </message>
    <message>
        <source>{0}: architecture {1} is not supported; only &apos;llama&apos; decoders (LLaMA, SmolLM2, TinyLlama…) can be opened</source>
        <translation>{0}：不支持架构 {1}；只能打开 &apos;llama&apos; 解码器（LLaMA、SmolLM2、TinyLlama……）</translation>
    </message>
    <message>
        <source>text {0} gives no tokens</source>
        <translation>文本 {0} 分不出任何词元</translation>
    </message>
    <message>
        <source>{0} reads at most {1}</source>
        <translation>{0} 最多读取 {1} 个</translation>
    </message>
    <message>
        <source>this app shows at most {0}</source>
        <translation>本应用最多显示 {0} 个</translation>
    </message>
    <message>
        <source>text has {0} tokens; {1}</source>
        <translation>文本有 {0} 个词元；{1}</translation>
    </message>
    <message>
        <source>{0}: cannot read tensor {1} ({2})</source>
        <translation>{0}：无法读取张量 {1}（{2}）</translation>
    </message>
    <message>
        <source>{0}: tensor {1} has a non-finite value</source>
        <translation>{0}：张量 {1} 含有非有限值</translation>
    </message>
    <message>
        <source>opening a GGUF model needs the packages gguf and tokenizers: pip install gguf tokenizers</source>
        <translation>打开 GGUF 模型需要 gguf 和 tokenizers 这两个包：pip install gguf tokenizers</translation>
    </message>
    <message>
        <source>{0}: the metadata field {1} is missing</source>
        <translation>{0}：缺少元数据字段 {1}</translation>
    </message>
    <message>
        <source>{0}: the metadata field {1} cannot be read ({2})</source>
        <translation>{0}：无法读取元数据字段 {1}（{2}）</translation>
    </message>
    <message>
        <source>{0}: llama.{1} must be a positive integer, got {2}</source>
        <translation>{0}：llama.{1} 必须是正整数，实际为 {2}</translation>
    </message>
    <message>
        <source>{0}: llama.{1} must be a positive number, got {2}</source>
        <translation>{0}：llama.{1} 必须是正数，实际为 {2}</translation>
    </message>
    <message>
        <source>{0}: {1} query heads over d_model {2} sharing {3} key/value heads do not divide evenly</source>
        <translation>{0}：d_model {2} 上的 {1} 个查询头无法平均共享 {3} 个键/值头</translation>
    </message>
    <message>
        <source>{0}: RoPE over {1} of {2} head dimensions is not supported (only all of an even head size)</source>
        <translation>{0}：不支持只在 {2} 个头维度中的 {1} 个上施加 RoPE（只支持施加在全部维度上，且头的维度为偶数）</translation>
    </message>
    <message>
        <source>{0}: RoPE scaling is not supported</source>
        <translation>{0}：不支持 RoPE 缩放</translation>
    </message>
    <message>
        <source>{0}: the file is truncated ({1} bytes, but tensor {2} ends at byte {3})</source>
        <translation>{0}：文件不完整（只有 {1} 字节，但张量 {2} 结束于第 {3} 字节）</translation>
    </message>
    <message>
        <source>{0}: tensor {1} is stored as {2}, which this app cannot dequantise; supported: {3}</source>
        <translation>{0}：张量 {1} 以 {2} 存储，本应用无法对其反量化；支持的类型：{3}</translation>
    </message>
    <message>
        <source>{0}: tensor {1} has shape {2}, but the metadata implies {3}</source>
        <translation>{0}：张量 {1} 的形状为 {2}，但按元数据应为 {3}</translation>
    </message>
    <message>
        <source>{0}: tokenizer {1} is not supported; only byte-level BPE (&apos;gpt2&apos;, as in SmolLM2 and LLaMA 3)</source>
        <translation>{0}：不支持分词器 {1}；只支持字节级 BPE（&apos;gpt2&apos;，SmolLM2 和 LLaMA 3 使用的就是它）</translation>
    </message>
    <message>
        <source>{0}: pre-tokenizer {1} is not supported; known: {2}</source>
        <translation>{0}：不支持预分词器 {1}；已知的有：{2}</translation>
    </message>
    <message>
        <source>{0}: the tokenizer has {1} tokens, the model {2}</source>
        <translation>{0}：分词器有 {1} 个词元，模型却有 {2} 个</translation>
    </message>
    <message>
        <source>{0}: merge {1} does not join two known tokens</source>
        <translation>{0}：合并规则 {1} 连接的不是两个已知词元</translation>
    </message>
    <message>
        <source>{0} is staged twice</source>
        <translation>{0} 被暂存了两次</translation>
    </message>
    <message>
        <source>{0} cannot be written: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
    <message>
        <source>{0} is a folder; nothing was written or moved</source>
        <translation>{0} 是文件夹；没有写入或移动任何文件</translation>
    </message>
    <message>
        <source>{0} exists and is not a regular file; nothing was written or moved</source>
        <translation>{0} 已存在且不是普通文件；没有写入或移动任何文件</translation>
    </message>
    <message>
        <source>{0} is not installed; install it once with: {1}</source>
        <translation>{0} 尚未安装；请运行一次：{1}</translation>
    </message>
</context>
<context>
    <name>GradientLab</name>
    <message numerus="yes">
        <source>Train %n steps</source>
        <translation>
            <numerusform>训练 %n 步</numerusform>
        </translation>
    </message>
    <message>
        <source>Gradient lab — QKV Desktop</source>
        <translation>梯度实验室 — QKV Desktop</translation>
    </message>
    <message>
        <source>&lt;b&gt;Watch attention learn.&lt;/b&gt; Choose what the weights should look like and train: gradient descent on W_Q, W_K and W_V with the exact gradients of the loss (cross-entropy to a target pattern, or squared error to a target output). The main window&apos;s panes follow live; the result is one undoable step. Space starts and stops.</source>
        <translation>&lt;b&gt;看注意力如何学习。&lt;/b&gt;选择权重应有的样子然后训练：用损失（对目标模式的交叉熵，或对目标输出的平方误差）的精确梯度对 W_Q、W_K 和 W_V 做梯度下降。主窗口的面板实时跟随；训练结果是可撤销的一步。空格开始和停止。</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Scaling and the gradient</source>
        <translation>缩放与梯度</translation>
    </message>
    <message>
        <source>previous token</source>
        <translation>前一个词元</translation>
    </message>
    <message>
        <source>first token</source>
        <translation>第一个词元</translation>
    </message>
    <message>
        <source>the diagonal (itself)</source>
        <translation>对角线（自身）</translation>
    </message>
    <message>
        <source>painted pattern (click the grid)</source>
        <translation>手绘模式（点击网格）</translation>
    </message>
    <message>
        <source>target output (previous-token pattern × V)</source>
        <translation>目标输出（前一个词元模式 × V）</translation>
    </message>
    <message>
        <source>Query i attends to key i − 1 (the last key where there are fewer keys). The first query has no key before it: its target is key 0.</source>
        <translation>查询 i 关注键 i − 1（键较少时为最后一个键）。第一个查询前面没有键：它的目标是键 0。</translation>
    </message>
    <message>
        <source>Every query attends to key 0.</source>
        <translation>每个查询都关注键 0。</translation>
    </message>
    <message>
        <source>Click cells of the grid to paint the target; it starts as the previous-token pattern.</source>
        <translation>点击网格中的单元格来绘制目标；初始为“前一个词元”模式。</translation>
    </message>
    <message>
        <source>Query i attends to key i (the last key where there are fewer keys): in self-attention, itself.</source>
        <translation>查询 i 关注键 i（键较少时为最后一个键）：在自注意力中就是它自己。</translation>
    </message>
    <message>
        <source>Squared error between the output and the output that the previous-token pattern gives with V as it was when you chose this target.</source>
        <translation>输出与“前一个词元”模式在你选择此目标时的 V 下给出的输出之间的平方误差。</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>steps/s</source>
        <translation>步/秒</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>The learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>How far each step moves the weights: W ← W − rate · ∂L/∂W</source>
        <translation>每一步把权重移动多远：W ← W − 学习率 · ∂L/∂W</translation>
    </message>
    <message>
        <source>Steps of gradient descent for each d_k</source>
        <translation>每个 d_k 的梯度下降步数</translation>
    </message>
    <message>
        <source>The number of steps to train</source>
        <translation>训练步数</translation>
    </message>
    <message>
        <source>The number of steps for each d_k</source>
        <translation>每个 d_k 的训练步数</translation>
    </message>
    <message>
        <source>The steps per second</source>
        <translation>每秒步数</translation>
    </message>
    <message>
        <source>Steps trained per second while the panes follow</source>
        <translation>每秒训练的步数（各面板随之更新）</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Until you set one, 0.1, or 1 ÷ d_model rounded down to one digit where that is smaller: the comparison normalises each row of X, so every ‖x‖² is d_model (at 0.1 a model&apos;s 384 dimensions diverged at d_k = 4).</source>
        <translation>在你自己设定之前为 0.1；若 1 ÷ d_model（向下取到一位有效数字）更小，则取后者：对比会把 X 的每一行归一化，所以每个 ‖x‖² 都等于 d_model（真实模型有 384 维，用 0.1 时 d_k = 4 的训练会发散）。</translation>
    </message>
    <message>
        <source>Changed during a run, it applies from the next step on.</source>
        <translation>训练中途修改，从下一步起生效。</translation>
    </message>
    <message>
        <source>gradient norm per matrix (log scale)</source>
        <translation>各矩阵的梯度范数（对数坐标）</translation>
    </message>
    <message>
        <source>loss on</source>
        <translation>损失作用于</translation>
    </message>
    <message>
        <source>the output (through weights · V, as in a Transformer)</source>
        <translation>输出（经由 权重 · V，与 Transformer 中一样）</translation>
    </message>
    <message>
        <source>the weights (cross-entropy to the pattern)</source>
        <translation>权重本身（与目标模式的交叉熵）</translation>
    </message>
    <message>
        <source>Train d_k = 4, 64, 256 with and without ÷√d_k</source>
        <translation>训练 d_k = 4、64、256，有无 ÷√d_k</translation>
    </message>
    <message>
        <source>Stop the comparison (space); the runs that finished are shown</source>
        <translation>停止比较（空格）；显示已完成的训练</translation>
    </message>
    <message>
        <source>target weights (click to paint)</source>
        <translation>目标权重（点击绘制）</translation>
    </message>
    <message>
        <source>target weights</source>
        <translation>目标权重</translation>
    </message>
    <message>
        <source>target output</source>
        <translation>目标输出</translation>
    </message>
    <message>
        <source>attention weights now</source>
        <translation>当前注意力权重</translation>
    </message>
    <message>
        <source>output now</source>
        <translation>当前输出</translation>
    </message>
    <message>
        <source>Training needs W_Q and W_K of their own: turn off “share W_Q = W_K” first.</source>
        <translation>训练需要各自独立的 W_Q 和 W_K：请先关闭“共享 W_Q = W_K”。</translation>
    </message>
    <message>
        <source>Cannot train: {0}</source>
        <translation>无法训练：{0}</translation>
    </message>
    <message>
        <source>{0} = 0 (not drawn on a log scale)</source>
        <translation>{0} = 0（对数坐标上无法画出）</translation>
    </message>
    <message>
        <source>Until you set one, the session&apos;s: 0.5, or 1 ÷ the largest ‖x‖² of its token vectors where that is smaller (a model&apos;s long vectors diverged at 0.5).</source>
        <translation>在你自己设定之前，使用本会话的学习率：0.5；若 1 ÷ 词元向量中最大的 ‖x‖² 更小，则取后者（真实模型的向量很长，用 0.5 会发散）。</translation>
    </message>
    <message>
        <source>Steps of gradient descent that Train runs. Changed during a run, the run ends there.</source>
        <translation>“训练”执行的梯度下降步数。训练中途修改，训练就在这一步数结束。</translation>
    </message>
    <message>
        <source>gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>The learning rate follows this session&apos;s token vectors: {0} (0.5, or 1 ÷ their largest ‖x‖² where that is smaller).</source>
        <translation>学习率随本会话的词元向量而定：{0}（0.5；若 1 ÷ 这些向量中最大的 ‖x‖² 更小，则取后者）。</translation>
    </message>
    <message>
        <source>{0} = 0 at step {1} (not drawn on a log scale)</source>
        <translation>第 {1} 步 {0} = 0（对数坐标上无法画出）</translation>
    </message>
    <message>
        <source>Training stopped: {0}</source>
        <translation>训练已停止：{0}</translation>
    </message>
    <message>
        <source>step {0}: loss {1}, ‖∂L/∂W_Q‖ = {2}, ‖∂L/∂W_K‖ = {3}, ‖∂L/∂W_V‖ = {4}</source>
        <translation>第 {0} 步：损失 {1}，‖∂L/∂W_Q‖ = {2}，‖∂L/∂W_K‖ = {3}，‖∂L/∂W_V‖ = {4}</translation>
    </message>
    <message>
        <source>&lt;b&gt;The loss rose&lt;/b&gt; from {0} at step 1 to {1} at step {2}: try a smaller learning rate.</source>
        <translation>&lt;b&gt;损失上升了&lt;/b&gt;：从第 1 步的 {0} 升到第 {2} 步的 {1}。请试试更小的学习率。</translation>
    </message>
    <message>
        <source>The session has changed since this run (undone or edited): the curves show how that run went, not the weights now in the panes.</source>
        <translation>这次训练之后会话已改变（已撤销或已编辑）：曲线显示的是那次训练的过程，而不是面板中现在的权重。</translation>
    </message>
    <message>
        <source>loss (log scale)</source>
        <translation>损失（对数坐标）</translation>
    </message>
    <message>
        <source>The run ended at step {0}: the steps were set to {1}, fewer than it had trained.</source>
        <translation>训练在第 {0} 步结束：步数被设为 {1}，少于已训练的步数。</translation>
    </message>
    <message>
        <source>step {0} diverged: the softmax saturated, every attention weight is now 0 or 1, so the gradients on W_Q and W_K are exactly 0 and they can never move again (loss {1}; it started at {2}). Lower the learning rate and undo (Ctrl+Z) back to weights from before it saturated.</source>
        <translation>第 {0} 步发散：softmax 已饱和，现在每个注意力权重都是 0 或 1，所以 W_Q 和 W_K 上的梯度恰好为 0，它们再也不会改变（损失 {1}；开始时为 {2}）。请降低学习率，并撤销（Ctrl+Z）回到饱和之前的权重。</translation>
    </message>
    <message>
        <source>step {0} diverged: {1}[{2}] became {3}, not a finite number; lower the learning rate</source>
        <translation>第 {0} 步发散：{1}[{2}] 变成了 {3}，不再是有限数；请降低学习率</translation>
    </message>
    <message>
        <source>step {0} diverged: the scores q·k overflowed {1} (its largest number is {2}); lower the learning rate</source>
        <translation>第 {0} 步发散：分数 q·k 超出了 {1} 的最大值（{2}）；请降低学习率</translation>
    </message>
    <message>
        <source>step {0} diverged: {1} = X·W_{1} overflowed {2} (its largest number is {3}); lower the learning rate</source>
        <translation>第 {0} 步发散：{1} = X·W_{1} 超出了 {2} 的最大值（{3}）；请降低学习率</translation>
    </message>
    <message>
        <source>Training failed: {0}</source>
        <translation>训练失败：{0}</translation>
    </message>
    <message>
        <source>The comparison trains self-attention heads; switch to self-attention.</source>
        <translation>该比较训练的是自注意力头；请切换到自注意力。</translation>
    </message>
    <message>
        <source>The comparison normalises each row of X to mean 0 and variance 1, which needs d_model ≥ 2: add a dimension first.</source>
        <translation>对比会把 X 的每一行归一化为均值 0、方差 1，这需要 d_model ≥ 2：请先添加一个维度。</translation>
    </message>
    <message>
        <source>Training the first of {0} runs…</source>
        <translation>正在进行 {0} 组训练中的第一组……</translation>
    </message>
    <message>
        <source>Run {0} of {1}: d_k = {2} with ÷√d_k, step {3} of {4}</source>
        <translation>第 {0}/{1} 组：d_k = {2}，除以 √d_k，第 {3}/{4} 步</translation>
    </message>
    <message>
        <source>Run {0} of {1}: d_k = {2} without ÷√d_k, step {3} of {4}</source>
        <translation>第 {0}/{1} 组：d_k = {2}，不除以 √d_k，第 {3}/{4} 步</translation>
    </message>
    <message>
        <source>&lt;b&gt;From an earlier session&lt;/b&gt;: X, the mask or the seed has changed since these runs (undone, edited or another session loaded), so the plots and the table below are that session&apos;s. Run the comparison again for this one.</source>
        <translation>&lt;b&gt;来自之前的会话&lt;/b&gt;：这些运行之后，X、掩码或随机种子已经改变（撤销、编辑或载入了另一个会话），所以下面的图和表属于之前的会话。请为当前会话重新运行比较。</translation>
    </message>
    <message>
        <source>Finished: all {0} runs, {1} steps each.</source>
        <translation>完成：全部 {0} 组训练，每组 {1} 步。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopped&lt;/b&gt;: {0} of the {1} runs finished, and only they are plotted and listed below. Run the comparison again for all of them.</source>
        <translation>&lt;b&gt;已停止&lt;/b&gt;：{1} 组训练中完成了 {0} 组，下方的图和表只显示这些。再运行一次比较可得到全部结果。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopped&lt;/b&gt; before any run finished: nothing to show. Run the comparison again, with fewer steps for a quicker one.</source>
        <translation>&lt;b&gt;已停止&lt;/b&gt;，没有一组训练完成：无可显示。请再运行一次比较；步数少些会更快。</translation>
    </message>
    <message>
        <source>Fresh heads on this session&apos;s X, layer-normalised (each row: mean 0, variance 1, as a Transformer normalises it before attention; with W ~ N(0, 1/d_model), q and k then have components of variance about 1), trained towards the chosen pattern. The plots show the true gradients; the table adds the tutorial&apos;s mean p(1−p), only the diagonal of the softmax Jacobian diag(p) − ppᵀ.</source>
        <translation>在本会话的 X 上训练全新的注意力头，X 先做层归一化（每行均值 0、方差 1，与 Transformer 在注意力之前的归一化一样；W ~ N(0, 1/d_model) 时 q 和 k 的各分量方差约为 1），朝所选目标模式训练。图中是真实梯度；表格另列出教程的平均 p(1−p)，它只是 softmax 雅可比矩阵 diag(p) − ppᵀ 的对角线。</translation>
    </message>
    <message>
        <source>Cross-entropy of the weights to the pattern: its gradient on the scores is (p − pattern)/n, which a saturated softmax does not shrink while the weights are wrong (the log cancels the Jacobian). So here the unscaled heads, whose scores are √d_k times larger, and so are their gradients, can learn faster at the same learning rate, even where mean p(1−p) is nearly 0; their gradient falls once they are right. The line under the table says how this run&apos;s losses ended. A Transformer&apos;s loss does not reach the weights this way: choose the loss on the output to see what ÷√d_k prevents.</source>
        <translation>权重与目标模式的交叉熵：它对分数的梯度是 (p − 目标)/n，只要权重还不对，softmax 饱和也不会让它变小（对数抵消了雅可比矩阵）。所以在这里，未缩放的头分数大 √d_k 倍，梯度也大 √d_k 倍，在同样的学习率下可能学得更快，即使平均 p(1−p) 接近 0；学对之后它的梯度才下降。表格下方的一行说明本次运行的损失最后如何。Transformer 的损失并不是这样到达权重的：选择“输出”上的损失，看看 ÷√d_k 防止了什么。</translation>
    </message>
    <message>
        <source>Squared error of the output to the pattern × the head&apos;s starting V, per output component: the loss reaches the scores through weights · V and the whole Jacobian diag(p) − ppᵀ, as in a Transformer. Unscaled, the scores and their gradients are √d_k times larger: the softmax starts near one-hot (the table&apos;s mean max weight) or the first steps push it there, and where it is one-hot that Jacobian is nearly 0, so the row passes almost no gradient back to W_Q and W_K, whichever key it should attend to. So the larger d_k, the more such heads can stall with the loss high; what still falls is then mostly W_V&apos;s share (W_V trains too). Scaled, the scores keep a variance of about 1 at every d_k, so the softmax does not start saturated. Look for the stall in the losses at the end: the line under the table says what this run showed (with few tokens, or few keys per row, unscaled heads may learn as well).</source>
        <translation>输出与“目标模式 × 该头初始的 V”之间的平方误差（按输出分量平均）：损失经由 权重 · V 和完整的雅可比矩阵 diag(p) − ppᵀ 到达分数，与 Transformer 中一样。不缩放时，分数和它们的梯度都大 √d_k 倍：softmax 一开始就接近 one-hot（见表中的平均最大权重），或者最初几步就把它推到那里；在 one-hot 处雅可比矩阵几乎为 0，于是这一行几乎不把梯度传回 W_Q 和 W_K，无论它本该关注哪个键。所以 d_k 越大，这样的头越可能停滞在较高的损失上；这时仍在下降的主要是 W_V 的那一份（W_V 也在训练）。缩放后，分数在任何 d_k 下方差都约为 1，softmax 一开始不会饱和。请在最后的损失中寻找停滞：表格下方的一行说明本次运行的结果（词元很少或每行的键很少时，未缩放的头也可能学得一样好）。</translation>
    </message>
    <message>
        <source>no scaling</source>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>(log scale, from step 0)</source>
        <translation>（对数刻度，从第 0 步起）</translation>
    </message>
    <message>
        <source>Without ÷√d_k the loss ended higher than with it at d_k = {0}.</source>
        <translation>在 d_k = {0} 时，不加 ÷√d_k 的最终损失高于加 ÷√d_k 的。</translation>
    </message>
    <message>
        <source>Without ÷√d_k the loss ended lower than with it at d_k = {0}.</source>
        <translation>在 d_k = {0} 时，不加 ÷√d_k 的最终损失低于加 ÷√d_k 的。</translation>
    </message>
    <message>
        <source>Both ended at the same loss at d_k = {0}.</source>
        <translation>在 d_k = {0} 时，两者的最终损失相同。</translation>
    </message>
    <message>
        <source>So no unscaled head ended behind its scaled twin: this run does not show the stall ÷√d_k prevents (with more tokens, or the loss on the output, it may).</source>
        <translation>所以没有哪个未缩放的头落后于对应的缩放头：本次运行没有显示出 ÷√d_k 所防止的停滞（词元更多，或用输出上的损失时，可能会显示）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;In this run&lt;/b&gt;: {0}</source>
        <translation>&lt;b&gt;本次运行&lt;/b&gt;：{0}</translation>
    </message>
    <message>
        <source>mean max weight at the start</source>
        <translation>开始时的平均最大权重</translation>
    </message>
    <message>
        <source>scaling</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>mean p(1−p) at the start</source>
        <translation>开始时的平均 p(1−p)</translation>
    </message>
    <message>
        <source>‖∂L/∂W_Q‖ at the start</source>
        <translation>开始时的 ‖∂L/∂W_Q‖</translation>
    </message>
    <message>
        <source>‖∂L/∂W_K‖ at the start</source>
        <translation>开始时的 ‖∂L/∂W_K‖</translation>
    </message>
    <message>
        <source>loss at the start</source>
        <translation>开始时的损失</translation>
    </message>
    <message>
        <source>‖∂L/∂W_Q‖ at the end</source>
        <translation>结束时的 ‖∂L/∂W_Q‖</translation>
    </message>
    <message>
        <source>loss at the end</source>
        <translation>结束时的损失</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>HeadThumbnail</name>
    <message>
        <source>Show head {0} in the panes</source>
        <translation>在面板中显示头 {0}</translation>
    </message>
    <message>
        <source>{0} · K/V {1}</source>
        <translation>{0} · 键/值 {1}</translation>
    </message>
    <message>
        <source>head {0} · K/V {1}</source>
        <translation>头 {0} · 键/值 {1}</translation>
    </message>
    <message>
        <source>head {0}</source>
        <translation>头 {0}</translation>
    </message>
</context>
<context>
    <name>HeadsOverview</name>
    <message>
        <source>weights of every head</source>
        <translation>各头的注意力权重</translation>
    </message>
    <message>
        <source>The attention weights of every head side by side, small: how differently the heads attend.</source>
        <translation>各个头的注意力权重并排缩小显示：看各个头关注的地方有多不同。</translation>
    </message>
    <message>
        <source>weights of heads {0}–{1} of {2}: click one to show it</source>
        <translation>头 {0}–{1}（共 {2} 个）的注意力权重：点击一个头即可显示它</translation>
    </message>
    <message>
        <source>weights of every head: click one to show it</source>
        <translation>各头的注意力权重：点击一个头即可显示它</translation>
    </message>
    <message>
        <source>K/V {0}: heads {1}</source>
        <translation>键/值 {0}：头 {1}</translation>
    </message>
    <message>
        <source>Grouped-query attention: {0} query heads share {1} key/value heads ({2}). This layer&apos;s {7}: {3:,} parameters, {4:,} if every head had its own keys and values (MHA); keys and values cached per token: {5:,} numbers, {6:,} with MHA.</source>
        <translation>分组查询注意力：{0} 个查询头共享 {1} 个键/值头（{2}）。这一层的 {7}：{3:,} 个参数，如果每个头都有自己的键和值（MHA）则为 {4:,} 个；每个词元缓存的键和值：{5:,} 个数，MHA 为 {6:,} 个。</translation>
    </message>
</context>
<context>
    <name>HeatmapPane</name>
    <message>
        <source>Right-click the pane to export or copy it.</source>
        <translation>右键点击面板可导出或复制。</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出……</translation>
    </message>
    <message>
        <source>Copy image</source>
        <translation>复制图像</translation>
    </message>
</context>
<context>
    <name>KVCacheLab</name>
    <message>
        <source>KV-cache stepper — QKV Desktop</source>
        <translation>KV 缓存逐步解码 — QKV Desktop</translation>
    </message>
    <message>
        <source>The KV-cache stepper decodes self-attention; this session is cross-attention. Switch to self-attention to step through it.</source>
        <translation>KV 缓存逐步解码只适用于自注意力；本会话是交叉注意力。请切换到自注意力再逐步查看。</translation>
    </message>
    <message>
        <source>Cannot decode this session: decoding is causal, and with its mask token {0} “{1}” would see no key at its step (the mask hides every key from 0 to {0}). Unmask one of them in the mask pane.</source>
        <translation>无法解码这个会话：解码是因果的，在它的掩码下，词元 {0}“{1}”在自己那一步看不到任何键（掩码遮住了从 0 到 {0} 的所有键）。请在掩码面板中取消遮住其中一个。</translation>
    </message>
    <message>
        <source>Cannot decode this session: {0}</source>
        <translation>无法解码本会话：{0}</translation>
    </message>
    <message>
        <source>Cannot decode this session: its numbers overflow float64 (beyond ±1.8e308); the main window says where.</source>
        <translation>无法解码此会话：它的数值超出了 float64（超过 ±1.8e308）；主窗口会指出出错的位置。</translation>
    </message>
    <message>
        <source>This session is not causal; decoding always is (token t cannot see later tokens), so these weights are those of the causal option, not of the panes.</source>
        <translation>本会话未开启因果掩码；解码总是因果的（词元 t 看不到后面的词元），所以这里的权重是开启因果选项时的权重，而不是面板中的权重。</translation>
    </message>
    <message>
        <source> · dimensions 0–{0} of {1}</source>
        <translation> · 第 0–{0} 维（共 {1} 维）</translation>
    </message>
    <message>
        <source>q_t (new query)</source>
        <translation>q_t（新的查询）</translation>
    </message>
    <message numerus="yes">
        <source>K cache: %n rows (+1)</source>
        <translation>
            <numerusform>K 缓存：%n 行（+1）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>V cache: %n rows (+1)</source>
        <translation>
            <numerusform>V 缓存：%n 行（+1）</numerusform>
        </translation>
    </message>
    <message>
        <source>new weight row</source>
        <translation>新的权重行</translation>
    </message>
    <message>
        <source>new output row</source>
        <translation>新的输出行</translation>
    </message>
    <message>
        <source>outputs so far</source>
        <translation>目前的输出</translation>
    </message>
    <message>
        <source>Recomputed without the cache: {0}</source>
        <translation>不用缓存重新计算：{0}</translation>
    </message>
    <message>
        <source>equal to the last bit</source>
        <translation>逐位完全相同</translation>
    </message>
    <message>
        <source>Q, K and V of token 0 again, then the whole 1×1 QKᵀ.</source>
        <translation>重新计算词元 0 的 Q、K、V，再算整个 1×1 的 QKᵀ。</translation>
    </message>
    <message>
        <source>Q, K and V of tokens 0…{0} again, then the whole {1}×{1} QKᵀ.</source>
        <translation>重新计算词元 0…{0} 的 Q、K、V，再算整个 {1}×{1} 的 QKᵀ。</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>Token {0} without a cache</source>
        <translation>不用缓存的词元 {0}</translation>
    </message>
    <message>
        <source>max |cached − recomputed| = {0}: {1}.</source>
        <translation>max |缓存 − 重算| = {0}：{1}。</translation>
    </message>
    <message>
        <source>tokens 0…{0}</source>
        <translation>词元 0…{0}</translation>
    </message>
    <message>
        <source>this step</source>
        <translation>本步</translation>
    </message>
    <message>
        <source>&lt;b&gt;Decoding with a KV cache.&lt;/b&gt; A causal model produces one token at a time. For token t (row t of the tables) it needs the new query q_t and the keys and values of tokens 0…t; those of earlier tokens never change, so they are kept in the cache, which grows by exactly &lt;i&gt;one&lt;/i&gt; row per step (k_t, v_t). Space plays, ← → step.</source>
        <translation>&lt;b&gt;用 KV 缓存解码。&lt;/b&gt;因果模型一次生成一个词元。对词元 t（表格中的第 t 行）需要新的查询 q_t 以及词元 0…t 的键和值；之前词元的键和值不会再变，所以存进缓存，缓存每步恰好增加&lt;i&gt;一&lt;/i&gt;行（k_t、v_t）。空格播放，← → 单步。</translation>
    </message>
    <message>
        <source>equal to rounding ({0} × the unit in the last place of the largest value): a matrix product adds its d terms in another order for many rows than for one</source>
        <translation>在舍入误差内相等（最大值末位单位的 {0} 倍），因为矩阵乘法对多行和对一行求和 d 项的顺序不同</translation>
    </message>
    <message>
        <source>token 0</source>
        <translation>词元 0</translation>
    </message>
    <message>
        <source>multiply-adds with the cache</source>
        <translation>用缓存的乘加次数</translation>
    </message>
    <message>
        <source>multiply-adds recomputing</source>
        <translation>重算的乘加次数</translation>
    </message>
    <message>
        <source>With the cache a step costs 3·d_model·d_k + 2·(t+1)·d_k; recomputing, 3·(t+1)·d_model·d_k + 2·(t+1)²·d_k.</source>
        <translation>用缓存每步需要 3·d_model·d_k + 2·(t+1)·d_k 次乘加；重算需要 3·(t+1)·d_model·d_k + 2·(t+1)²·d_k 次。</translation>
    </message>
</context>
<context>
    <name>LabWindow</name>
    <message>
        <source>Export view…</source>
        <translation>导出视图……</translation>
    </message>
    <message>
        <source>Save this window as a PNG, SVG or PDF picture</source>
        <translation>把此窗口保存为 PNG、SVG 或 PDF 图片</translation>
    </message>
    <message>
        <source>Export steps (PDF)…</source>
        <translation>导出各步（PDF）……</translation>
    </message>
    <message>
        <source>Save every step as one page of a PDF, for a handout</source>
        <translation>把每一步保存为 PDF 的一页，用作讲义</translation>
    </message>
    <message>
        <source>Export view</source>
        <translation>导出视图</translation>
    </message>
    <message>
        <source>Export steps</source>
        <translation>导出各步</translation>
    </message>
    <message>
        <source>Not exported: {0}</source>
        <translation>未导出：{0}</translation>
    </message>
</context>
<context>
    <name>LessonBanners</name>
    <message>
        <source>&lt;b&gt;Attention is nearly uniform&lt;/b&gt; (every row&apos;s entropy &gt; 99% of log n, every weight within {0} of 1/n): a row&apos;s scaled scores differ by at most {1}, and softmax of nearly equal numbers is flat.</source>
        <translation>&lt;b&gt;注意力几乎是均匀的&lt;/b&gt;（每一行的熵都超过 log n 的 99%，每个权重与 1/n 相差不超过 {0}）：同一行缩放后的分数最多相差 {1}，而对几乎相等的数做 softmax，结果是平的。</translation>
    </message>
    <message>
        <source>The temperature T = {0} divides every score.</source>
        <translation>温度 T = {0} 把每个分数都除小了。</translation>
    </message>
    <message>
        <source>Set T = 1</source>
        <translation>设 T = 1</translation>
    </message>
    <message>
        <source>The scores are this small because the weights are randn × {0}.</source>
        <translation>分数这么小，是因为权重是 randn × {0}。</translation>
    </message>
    <message>
        <source>Try weight scale 1</source>
        <translation>试试权重尺度 1</translation>
    </message>
    <message>
        <source>Undo the last {0} edits</source>
        <translation>撤销最近 {0} 步编辑</translation>
    </message>
    <message>
        <source>Not computed: {0}. The panes show the last result that computed.</source>
        <translation>未能计算：{0}。各面板显示的是上一次算出的结果。</translation>
    </message>
    <message>
        <source>{0}. The panes keep the last result that computed until the table&apos;s values compute again; {1} goes back to it (Redo brings the edits back).</source>
        <translation>{0}。在表格中的值能够重新计算之前，各面板保留上一次算出的结果；点“{1}”可回到该结果（重做可找回这些编辑）。</translation>
    </message>
    <message>
        <source>Naive softmax overflowed: {0} of {1} weights</source>
        <translation>朴素 softmax 溢出了：{1} 个权重中有 {0} 个</translation>
    </message>
    <message>
        <source>The diagonal is its row&apos;s largest weight in {0} of {1} rows; with weights this flat that says little.</source>
        <translation>对角线在 {1} 行中的 {0} 行是该行最大的权重；权重这么平，这说明不了什么。</translation>
    </message>
    <message>
        <source>Tutorial example 1&apos;s commentary says 爱 attends more to 我 and 智能: here 爱→我 = {0} and 爱→智能 = {1} (1/n = {2}); 爱&apos;s smallest weight is on {3}.</source>
        <translation>教程示例 1 的解说称“爱”对“我”和“智能”的权重更高：这里 爱→我 = {0}，爱→智能 = {1}（1/n = {2}）；“爱”最小的权重落在“{3}”上。</translation>
    </message>
    <message>
        <source>× 100 the inputs</source>
        <translation>输入 × 100</translation>
    </message>
    <message>
        <source>&lt;b&gt;Naive softmax broke: {0} weights are NaN&lt;/b&gt; (in {1} rows). Every exp(s) of those rows underflowed to 0, and 0/0 = NaN. Subtracting the row maximum makes the largest exponent exp(0) = 1, so the sum is never 0.</source>
        <translation>&lt;b&gt;朴素 softmax 出错了：{0} 个权重为 NaN&lt;/b&gt;（分布在 {1} 行中）。这些行的每个 exp(s) 都下溢为 0，而 0/0 = NaN。减去行最大值后，最大的指数项为 exp(0) = 1，总和永远不会是 0。</translation>
    </message>
    <message>
        <source>Use the stable softmax</source>
        <translation>使用稳定的 softmax</translation>
    </message>
    <message>
        <source>Not computed: {0}.</source>
        <translation>未能计算：{0}。</translation>
    </message>
    <message>
        <source>Not computed: {0}. Nothing is shown until the table&apos;s values compute.</source>
        <translation>未能计算：{0}。表格中的值能计算之前，面板不显示任何内容。</translation>
    </message>
    <message>
        <source>{0}. No values of this session have computed yet, so the panes show nothing; change the value the message names in the table.</source>
        <translation>{0}。这个会话的值还没有算出过结果，所以面板是空的；请在表格中修改消息里指出的那个值。</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Hover any cell: the cells it is computed from light up in the other panes, and the status bar shows its formula.</source>
        <translation>悬停任一单元格：其他面板中参与计算它的单元格会高亮，状态栏显示它的公式。</translation>
    </message>
    <message>
        <source>Hover a cell: its inputs light up, its formula is below.</source>
        <translation>悬停单元格：它的输入会高亮，公式显示在下方。</translation>
    </message>
    <message>
        <source>Hover a cell: its inputs and formula</source>
        <translation>悬停单元格：输入与公式</translation>
    </message>
    <message>
        <source>Edit a value in the table, hover any cell to see how it is computed, and click a cell to have it explained.</source>
        <translation>在表格里改一个数值；把鼠标移到任意单元格上看它是怎么算出来的；点击单元格查看讲解。</translation>
    </message>
    <message>
        <source>Edit a value, hover a cell to see how it is computed, click it to have it explained.</source>
        <translation>改一个数值，悬停单元格看它怎么算出来，点击它查看讲解。</translation>
    </message>
    <message>
        <source>Edit a value · hover a cell: its formula · click: explained</source>
        <translation>改数值 · 悬停单元格：看公式 · 点击：看讲解</translation>
    </message>
    <message>
        <source>Edit, hover or click a cell</source>
        <translation>改数值、悬停或点击单元格</translation>
    </message>
    <message>
        <source>Attention is nearly uniform: every weight is within {0} of 1/(visible keys).</source>
        <translation>注意力几乎是均匀的：每个权重与 1/(可见键数) 相差不超过 {0}。</translation>
    </message>
    <message>
        <source>Nearly uniform: every weight within {0} of 1/(visible keys)</source>
        <translation>几乎均匀：每个权重与 1/(可见键数) 相差 ≤ {0}</translation>
    </message>
    <message>
        <source>Attention is nearly uniform: every weight is within {0} of 1/n.</source>
        <translation>注意力几乎是均匀的：每个权重与 1/n 相差不超过 {0}。</translation>
    </message>
    <message>
        <source>Nearly uniform: every weight within {0} of 1/n</source>
        <translation>几乎均匀：每个权重与 1/n 相差 ≤ {0}</translation>
    </message>
    <message>
        <source>Attention is nearly uniform</source>
        <translation>注意力几乎是均匀的</translation>
    </message>
    <message>
        <source>Naive softmax broke</source>
        <translation>朴素 softmax 出错了</translation>
    </message>
    <message numerus="yes">
        <source>Naive softmax broke: every weight of %n rows is 0.</source>
        <translation>
            <numerusform>朴素 softmax 出错了：%n 行的每个权重都为 0。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Naive softmax broke: %n rows of 0s</source>
        <translation>
            <numerusform>朴素 softmax 出错了：%n 行全为 0</numerusform>
        </translation>
    </message>
    <message>
        <source>Naive softmax is on: nothing has overflowed yet.</source>
        <translation>朴素 softmax 已开启：目前还没有溢出。</translation>
    </message>
    <message>
        <source>Naive softmax is on</source>
        <translation>朴素 softmax 已开启</translation>
    </message>
    <message>
        <source>Naive softmax broke: {0} weights are NaN.</source>
        <translation>朴素 softmax 出错了：{0} 个权重为 NaN。</translation>
    </message>
    <message>
        <source>Naive softmax broke: {0} NaN</source>
        <translation>朴素 softmax 出错了：{0} 个 NaN</translation>
    </message>
    <message>
        <source>Naive softmax overflowed: {0} of {1} weights are not finite.</source>
        <translation>朴素 softmax 溢出了：{1} 个权重中有 {0} 个不是有限值。</translation>
    </message>
    <message>
        <source>Naive softmax overflowed</source>
        <translation>朴素 softmax 溢出了</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attention is nearly uniform&lt;/b&gt; (n = the keys a query sees under the mask: every row that sees two or more keys has entropy &gt; 99% of log n, every weight is within {0} of 1/n, and a query that sees one key gives it all its weight): a row&apos;s visible scaled scores differ by at most {1}, and softmax of nearly equal numbers is flat.</source>
        <translation>&lt;b&gt;注意力几乎是均匀的&lt;/b&gt;（n 为掩码下一个查询能看到的键数：能看到两个及以上键的每一行，熵都超过 log n 的 99%；每个权重与 1/n 相差不超过 {0}；只能看到一个键的查询把全部权重给这个键）：同一行可见的缩放后分数最多相差 {1}，而对几乎相等的数做 softmax，结果是平的。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attention is nearly uniform&lt;/b&gt; (n = the keys a query sees under the mask: every row&apos;s entropy &gt; 99% of log n, every weight within {0} of 1/n): a row&apos;s visible scaled scores differ by at most {1}, and softmax of nearly equal numbers is flat.</source>
        <translation>&lt;b&gt;注意力几乎是均匀的&lt;/b&gt;（n 为掩码下一个查询能看到的键数：每一行的熵都超过 log n 的 99%，每个权重与 1/n 相差不超过 {0}）：同一行可见的缩放后分数最多相差 {1}，而对几乎相等的数做 softmax，结果是平的。</translation>
    </message>
    <message>
        <source>Tutorial example 1&apos;s commentary says 爱 attends more to 我 and 智能: here the mask hides some of them from 爱, so the claim cannot be read off this head.</source>
        <translation>教程示例 1 的解说称“爱”更关注“我”和“智能”：这里掩码对“爱”遮住了其中的词元，因此无法从这个头读出这一说法。</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Naive softmax broke: every weight of %n rows is 0&lt;/b&gt;. In those rows every exp(s) is finite (the largest scaled score is {0}, below {1}), but their sum overflows to ∞, so every weight is exp(s) / ∞ = 0 and the row sums to 0.</source>
        <translation>
            <numerusform>&lt;b&gt;朴素 softmax 出错了：%n 行的每个权重都为 0&lt;/b&gt;。这些行中每个 exp(s) 都是有限的（最大的缩放分数是 {0}，低于 {1}），但它们的和上溢为 ∞，所以每个权重都是 exp(s) / ∞ = 0，这一行的和为 0。</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;The fix:&lt;/b&gt; subtract each row&apos;s maximum first. Then every exponent is ≤ 0 and the largest is exp(0) = 1, so the sum lies between 1 and the number of keys.</source>
        <translation>&lt;b&gt;解决办法：&lt;/b&gt;先减去每一行的最大值。这样每个指数都 ≤ 0，最大的是 exp(0) = 1，所以和介于 1 与键的个数之间。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Naive softmax is on&lt;/b&gt; (exp without subtracting the row maximum). The largest scaled score is {0}; exp overflows above {1}, so nothing has broken yet.</source>
        <translation>&lt;b&gt;朴素 softmax 已开启&lt;/b&gt;（exp 之前不减去行最大值）。缩放后的最大分数为 {0}；exp 在超过 {1} 时溢出，所以目前一切正常。</translation>
    </message>
    <message numerus="yes">
        <source>In %n more rows every exp(s) is finite, but their sum overflows to ∞, so every weight there is exp(s) / ∞ = 0.</source>
        <translation>
            <numerusform>另有 %n 行中每个 exp(s) 都是有限的，但它们的和上溢为 ∞，所以那里的每个权重都是 exp(s) / ∞ = 0。</numerusform>
        </translation>
    </message>
    <message>
        <source>In {0} more rows every exp(s) underflowed to 0 instead, and 0/0 = NaN.</source>
        <translation>另有 {0} 行的每个 exp(s) 都下溢为 0，而 0/0 = NaN。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Naive softmax overflowed: {0} of {1} weights are not finite&lt;/b&gt; (in {2} rows). exp(s) is larger than the largest {3} once s &gt; {4}, and the largest scaled score here is {5}: Σ exp = ∞ and ∞/∞ = NaN.</source>
        <translation>&lt;b&gt;朴素 softmax 上溢：{1} 个权重中有 {0} 个不是有限值&lt;/b&gt;（分布在 {2} 行中）。s &gt; {4} 时 exp(s) 就超过了 {3} 能表示的最大值，而这里缩放后的最大分数为 {5}：Σ exp = ∞，∞/∞ = NaN。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The fix:&lt;/b&gt; subtract each row&apos;s maximum first. Then every exponent is ≤ 0 and the largest is exp(0) = 1, so exp cannot overflow and the sum is never 0; the weights are the same, since e&lt;sup&gt;s−m&lt;/sup&gt;/Σe&lt;sup&gt;s−m&lt;/sup&gt; = e&lt;sup&gt;s&lt;/sup&gt;/Σe&lt;sup&gt;s&lt;/sup&gt;.</source>
        <translation>&lt;b&gt;解决办法：&lt;/b&gt;先减去每一行的最大值。这样每个指数都 ≤ 0，最大的一项为 exp(0) = 1，exp 不会上溢，总和也永远不会是 0；权重保持不变，因为 e&lt;sup&gt;s−m&lt;/sup&gt;/Σe&lt;sup&gt;s−m&lt;/sup&gt; = e&lt;sup&gt;s&lt;/sup&gt;/Σe&lt;sup&gt;s&lt;/sup&gt;。</translation>
    </message>
    <message>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
</context>
<context>
    <name>Lists</name>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Tokens (X)</source>
        <translation>词元（X）</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Editor</source>
        <translation>编辑器</translation>
    </message>
    <message>
        <source>Computing in the background…</source>
        <translation>正在后台计算……</translation>
    </message>
    <message>
        <source>&amp;Getting started</source>
        <translation>入门导览(&amp;G)</translation>
    </message>
    <message>
        <source>A short guided tour of the window, step by step</source>
        <translation>一步一步地带你简短浏览这个窗口</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Add token</source>
        <translation>添加词元</translation>
    </message>
    <message>
        <source>Nothing to show: the values of this session do not compute (the banner above says why). The panes appear once the table&apos;s values compute.</source>
        <translation>没有可显示的内容：这个会话的值无法计算（上方横幅说明了原因）。表格中的值能计算后，面板就会出现。</translation>
    </message>
    <message>
        <source>Positions, mask</source>
        <translation>位置、掩码</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言 Language(&amp;L)</translation>
    </message>
    <message>
        <source>Append a token with a zero vector (Ctrl+Enter)</source>
        <translation>在末尾添加一个零向量词元（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Insert token</source>
        <translation>插入词元</translation>
    </message>
    <message>
        <source>Insert a token above the current one (Ctrl+I)</source>
        <translation>在当前词元上方插入一个词元（Ctrl+I）</translation>
    </message>
    <message>
        <source>Delete token</source>
        <translation>删除词元</translation>
    </message>
    <message>
        <source>Delete the selected tokens (Ctrl+Del)</source>
        <translation>删除选中的词元（Ctrl+Del）</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move the current token up (Alt+Up)</source>
        <translation>将当前词元上移（Alt+Up）</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Move the current token down (Alt+Down)</source>
        <translation>将当前词元下移（Alt+Down）</translation>
    </message>
    <message>
        <source>Add dimension</source>
        <translation>添加维度</translation>
    </message>
    <message>
        <source>Add a dimension (d_model + 1); the weights re-initialise</source>
        <translation>添加一个维度（d_model + 1）；权重会重新初始化</translation>
    </message>
    <message>
        <source>Remove dimension</source>
        <translation>删除维度</translation>
    </message>
    <message>
        <source>Remove the current column&apos;s dimension; the weights re-initialise</source>
        <translation>删除当前列所在的维度；权重会重新初始化</translation>
    </message>
    <message>
        <source>{0} is a new session: Save asks for a file name, and {1} keeps what it holds.</source>
        <translation>{0}是一个新会话：保存时会询问文件名，{1} 保留原有内容。</translation>
    </message>
    <message>
        <source>Greyed while the session&apos;s values do not compute (see the message above the panes).</source>
        <translation>会话的数值无法计算时变灰（见窗格上方的消息）。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the selected cells as TSV</source>
        <translation>以 TSV 格式复制选中的单元格</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>Paste a TSV/CSV block</source>
        <translation>粘贴一块 TSV/CSV 数据</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Reset layout</source>
        <translation>重置布局</translation>
    </message>
    <message>
        <source>&amp;Presets</source>
        <translation>预设(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About QKV Desktop</source>
        <translation>关于 QKV Desktop(&amp;A)</translation>
    </message>
    <message>
        <source>Interface language: {0}</source>
        <translation>界面语言：{0}</translation>
    </message>
    <message>
        <source>&amp;Undo {0}</source>
        <translation>撤销(&amp;U) {0}</translation>
    </message>
    <message>
        <source>&amp;Redo {0}</source>
        <translation>重做(&amp;R) {0}</translation>
    </message>
    <message>
        <source>Load preset {0}</source>
        <translation>加载预设 {0}</translation>
    </message>
    <message>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
    <message>
        <source>Select the tokens to delete: click a cell of each token&apos;s row first.</source>
        <translation>请先选择要删除的词元：点击每个词元所在行的一个单元格。</translation>
    </message>
    <message>
        <source>About QKV Desktop</source>
        <translation>关于 QKV Desktop</translation>
    </message>
</context>
<context>
    <name>MaskPainter</name>
    <message>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
</context>
<context>
    <name>MatrixEditor</name>
    <message>
        <source>Double-click or type to edit. Ctrl+C / Ctrl+V copy and paste blocks (TSV/CSV). Ctrl+drag a value sideways to scrub it.</source>
        <translation>双击或直接输入即可编辑。Ctrl+C / Ctrl+V 复制和粘贴数据块（TSV/CSV）。按住 Ctrl 左右拖动数值可连续调节。</translation>
    </message>
    <message>
        <source>paste into the weight tables is one value at a time; import weights from a file instead</source>
        <translation>权重表只能逐个粘贴数值；请改为从文件导入权重</translation>
    </message>
    <message>
        <source>Paste refused: {0}</source>
        <translation>粘贴被拒绝：{0}</translation>
    </message>
    <message>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
</context>
<context>
    <name>MatrixTableModel</name>
    <message>
        <source>Input dimension d{0}: this row multiplies column d{0} of X.</source>
        <translation>输入维度 d{0}：这一行与 X 的第 d{0} 列相乘。</translation>
    </message>
    <message>
        <source>d_k dimension {0}: this column makes column {0} of {1}.</source>
        <translation>d_k 维度 {0}：这一列得到 {1} 的第 {0} 列。</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>only finite numbers can be used</source>
        <translation>只能使用有限数值</translation>
    </message>
    <message>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
</context>
<context>
    <name>MemoryCalculator</name>
    <message>
        <source>There are never more KV heads than query heads: each KV head serves at least one query head, and as many as the query heads is multi-head attention.</source>
        <translation>KV 头数从不多于查询头数：每个 KV 头至少服务一个查询头，与查询头数相等即为多头注意力。</translation>
    </message>
    <message>
        <source>Memory of the KV cache</source>
        <translation>KV 缓存的内存</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>query heads</source>
        <translation>查询头数</translation>
    </message>
    <message>
        <source>KV heads (GQA)</source>
        <translation>KV 头数（GQA）</translation>
    </message>
    <message>
        <source>d_k (head dim)</source>
        <translation>d_k（头维度）</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>bytes per number</source>
        <translation>每个数的字节数</translation>
    </message>
    <message>
        <source>this session</source>
        <translation>本会话</translation>
    </message>
    <message>
        <source>{0} (encoder: shape only)</source>
        <translation>{0}（编码器：仅按形状计算）</translation>
    </message>
    <message>
        <source>An encoder (BERT) reads its whole input at once, in both directions, and never decodes token by token: it keeps no KV cache. The sizes are those a cache of its shape would take.</source>
        <translation>编码器（BERT）一次读入整个输入、双向关注，从不逐个词元解码：它没有 KV 缓存。这里的大小是按它的形状算出的缓存所需空间。</translation>
    </message>
    <message>
        <source>typed numbers</source>
        <translation>手动输入</translation>
    </message>
    <message>
        <source>Heads with their own K and V. Grouped-query attention shares each among query heads ÷ KV heads query heads, so the KV heads must divide the query heads.</source>
        <translation>拥有自己的 K 和 V 的头。分组查询注意力让每个 KV 头由“查询头数 ÷ KV 头数”个查询头共用，因此 KV 头数必须整除查询头数。</translation>
    </message>
    <message>
        <source>The number of layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Layers of the model</source>
        <translation>模型的层数</translation>
    </message>
    <message>
        <source>The number of query heads</source>
        <translation>查询头数</translation>
    </message>
    <message>
        <source>Query heads of each layer</source>
        <translation>每层的查询头数</translation>
    </message>
    <message>
        <source>The number of KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>d_k</source>
        <translation>d_k</translation>
    </message>
    <message>
        <source>Dimension of each head&apos;s keys and values</source>
        <translation>每个头的键和值的维度</translation>
    </message>
    <message>
        <source>The number of tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>Tokens in the cache (the context length)</source>
        <translation>缓存中的词元数（上下文长度）</translation>
    </message>
    <message>
        <source>This session&apos;s {1} heads have {0} different pairs of W_K and W_V (an edit gave a head keys and values of its own), in groups of unequal size: not grouped-query attention, whose KV heads each serve the same number of query heads (possible with {1} query heads: {2} KV heads).</source>
        <translation>本会话的 {1} 个头有 {0} 组不同的 W_K 和 W_V（某次编辑让一个头有了自己的键和值），各组大小不等：这不是分组查询注意力，后者每个 KV 头服务相同数量的查询头（{1} 个查询头时可用的 KV 头数：{2}）。</translation>
    </message>
    <message>
        <source>KV heads ({0}) must divide query heads ({1}): in grouped-query attention each KV head serves query heads ÷ KV heads query heads, the same number for each, and {1} ÷ {0} is not a whole number. KV heads possible here: {2}.</source>
        <translation>KV 头数（{0}）必须整除查询头数（{1}）：在分组查询注意力中，每个 KV 头服务“查询头数 ÷ KV 头数”个查询头，每个 KV 头相同；而 {1} ÷ {0} 不是整数。此处可用的 KV 头数：{2}。</translation>
    </message>
    <message>
        <source>multi-head (MHA)</source>
        <translation>多头（MHA）</translation>
    </message>
    <message>
        <source>grouped-query (GQA)</source>
        <translation>分组查询（GQA）</translation>
    </message>
    <message>
        <source>multi-query (MQA)</source>
        <translation>多查询（MQA）</translation>
    </message>
    <message>
        <source>2 (K and V) × {0} × KV heads × {1} × {2} × {3} B</source>
        <translation>2（K 和 V）× {0} × KV 头数 × {1} × {2} × {3} B</translation>
    </message>
    <message numerus="yes">
        <source>%n layers</source>
        <translation>
            <numerusform>%n 层</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tokens</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>cache</source>
        <translation>缓存</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
</context>
<context>
    <name>ModelActions</name>
    <message>
        <source>Open &amp;model…</source>
        <translation>打开模型(&amp;M)……</translation>
    </message>
    <message>
        <source>Explore one attention head of a real model: a BERT encoder or a LLaMA decoder such as SmolLM2 (Ctrl+Shift+O)</source>
        <translation>探索真实模型的一个注意力头：BERT 编码器，或 SmolLM2 这样的 LLaMA 解码器（Ctrl+Shift+O）</translation>
    </message>
    <message>
        <source>the session did not come from an opened model</source>
        <translation>当前会话不是来自已打开的模型</translation>
    </message>
    <message>
        <source>Load {0}, layer {1} · head {2}</source>
        <translation>加载 {0}，第 {1} 层 · 头 {2}</translation>
    </message>
    <message>
        <source>Load {0}, layer {1} · all {2} heads</source>
        <translation>加载 {0}，第 {1} 层 · 全部 {2} 个头</translation>
    </message>
    <message>
        <source>Loaded from {0}
Sentence: {1}</source>
        <translation>加载自 {0}
句子：{1}</translation>
    </message>
</context>
<context>
    <name>ModelDialog</name>
    <message>
        <source>Open model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Choose folder…</source>
        <translation>选择文件夹……</translation>
    </message>
    <message>
        <source>To get {0} without a download from this app, install it once with: {1}</source>
        <translation>若要在本程序不下载任何内容的情况下获得 {0}，请先安装一次：{1}</translation>
    </message>
    <message>
        <source>The sentence the model reads; it is split into WordPiece tokens with [CLS] and [SEP] added.</source>
        <translation>模型读取的句子；它会被切分为 WordPiece 词元，并加上 [CLS] 和 [SEP]。</translation>
    </message>
    <message>
        <source>Encoder layer, counted from 1. The head sees the hidden states entering this layer; layer 1 sees the embeddings.</source>
        <translation>编码器层，从 1 开始计数。注意力头看到的是进入这一层的隐藏状态；第 1 层看到的是嵌入向量。</translation>
    </message>
    <message>
        <source>Attention head of the layer, counted from 1; each has its own W_Q, W_K, W_V and biases.</source>
        <translation>该层的注意力头，从 1 开始计数；每个头都有自己的 W_Q、W_K、W_V 和偏置。</translation>
    </message>
    <message>
        <source>{0} (decoder): {1} layers × {2} query heads sharing {3} key/value heads, d_model {4}, d_k {5}, RoPE base {6}. Weights: {7}, dequantised to float32 and computed in float64.</source>
        <translation>{0}（解码器）：{1} 层 × {2} 个查询头，共享 {3} 个键/值头，d_model {4}，d_k {5}，RoPE 底数 {6}。权重：{7}，反量化为 float32，用 float64 计算。</translation>
    </message>
    <message>
        <source>of {0}</source>
        <translation>（共 {0} 个）</translation>
    </message>
    <message>
        <source>Opening {0}: {1} of {2} steps done</source>
        <translation>正在打开 {0}：已完成 {1}/{2} 步</translation>
    </message>
    <message>
        <source>Load {0}, layer {1} · head {2}</source>
        <translation>加载 {0}，第 {1} 层 · 头 {2}</translation>
    </message>
    <message>
        <source>Running all {0} layers of {1}: {2} of {3} steps done</source>
        <translation>正在运行 {1} 的全部 {0} 层：已完成 {2}/{3} 步</translation>
    </message>
    <message>
        <source>Running {0} up to layer {1}: {2} of {3} steps done</source>
        <translation>正在运行 {0} 到第 {1} 层：已完成 {2}/{3} 步</translation>
    </message>
    <message>
        <source>Could not load layer {0} · head {1} of {2}:
{3}</source>
        <translation>无法加载 {2} 的第 {0} 层 · 头 {1}：
{3}</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>BERT folder or .gguf file</source>
        <translation>BERT 文件夹或 .gguf 文件</translation>
    </message>
    <message>
        <source>A BERT folder (config.json, model.safetensors) or a LLaMA .gguf file</source>
        <translation>BERT 文件夹（config.json、model.safetensors）或 LLaMA 的 .gguf 文件</translation>
    </message>
    <message>
        <source>Choose .gguf file…</source>
        <translation>选择 .gguf 文件……</translation>
    </message>
    <message>
        <source>Use the installed {0} (encoder)</source>
        <translation>使用已安装的 {0}（编码器）</translation>
    </message>
    <message>
        <source>Use the installed {0} (decoder)</source>
        <translation>使用已安装的 {0}（解码器）</translation>
    </message>
    <message>
        <source>Stop the work in progress; nothing changes</source>
        <translation>停止正在进行的工作；不会做任何更改</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>The text the model reads, split into byte-level BPE tokens; the model predicts the token after the last one.</source>
        <translation>模型读取的文本，切分为字节级 BPE 词元；模型预测最后一个词元之后的词元。</translation>
    </message>
    <message>
        <source>Decoder layer, counted from 1. The head sees the RMS-normalised residual stream entering this layer.</source>
        <translation>解码器层，从 1 开始计数。注意力头看到的是进入这一层、经过 RMS 归一化的残差流。</translation>
    </message>
    <message>
        <source>Query head of the layer, counted from 1. Query heads share key/value heads (grouped-query attention), so W_K and W_V are those of its group.</source>
        <translation>这一层的查询头，从 1 开始计数。查询头共享键/值头（分组查询注意力），所以 W_K 和 W_V 属于它所在的组。</translation>
    </message>
    <message>
        <source>The layer</source>
        <translation>层号</translation>
    </message>
    <message>
        <source>The head</source>
        <translation>头编号</translation>
    </message>
    <message>
        <source>No checkpoint opened yet.</source>
        <translation>尚未打开检查点。</translation>
    </message>
    <message>
        <source>{0}: {1} layers × {2} heads, d_model {3}, d_k {4}</source>
        <translation>{0}：{1} 层 × {2} 个头，d_model {3}，d_k {4}</translation>
    </message>
    <message>
        <source>&lt;i&gt;Open a checkpoint to see its tokens.&lt;/i&gt;</source>
        <translation>&lt;i&gt;打开检查点后可查看词元。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>{0} tokens: {1}</source>
        <translation>{0} 个词元：{1}</translation>
    </message>
    <message>
        <source>Byte-level BPE splits some characters across tokens; such a character is shown once, where it starts, and … marks the rest:</source>
        <translation>字节级 BPE 会把有些字符拆到几个词元里；这样的字符只在它开始的词元上显示一次，其余部分用 … 标出：</translation>
    </message>
    <message>
        <source>bytes {0}</source>
        <translation>字节 {0}</translation>
    </message>
    <message>
        <source>completes {0}</source>
        <translation>补全 {0}</translation>
    </message>
    <message>
        <source>{0} continues in the next token</source>
        <translation>{0} 在下一个词元中继续</translation>
    </message>
    <message>
        <source>token {0} ({1}): {2}</source>
        <translation>词元 {0}（{1}）：{2}</translation>
    </message>
    <message>
        <source>Choose a BERT checkpoint folder</source>
        <translation>选择 BERT 检查点文件夹</translation>
    </message>
    <message>
        <source>Choose a LLaMA model file</source>
        <translation>选择 LLaMA 模型文件</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Could not open {0}:
{1}</source>
        <translation>无法打开 {0}：
{1}</translation>
    </message>
</context>
<context>
    <name>Panes</name>
    <message>
        <source>X_kv (key/value sequence)</source>
        <translation>X_kv（键/值序列）</translation>
    </message>
    <message>
        <source>concat (all heads)</source>
        <translation>concat（所有头拼接）</translation>
    </message>
    <message>
        <source>final output = concat·W_O</source>
        <translation>最终输出 = concat·W_O</translation>
    </message>
    <message>
        <source>X (query sequence)</source>
        <translation>X（查询序列）</translation>
    </message>
    <message>
        <source>X (input vectors)</source>
        <translation>X（输入向量）</translation>
    </message>
    <message>
        <source>ALiBi&apos;s penalty, added to the scaled scores: the farther the key, the lower.</source>
        <translation>ALiBi 的惩罚项，加到缩放后的分数上：键越远，分数越低。</translation>
    </message>
    <message>
        <source>The scores divided by the divisor (√d_k unless changed) and the temperature T, with the mask and ALiBi bias if any: what the softmax reads.</source>
        <translation>分数除以除数（默认 √d_k）和温度 T，再加上掩码和 ALiBi 偏置（如有）：softmax 读取的就是它。</translation>
    </message>
    <message>
        <source>concat = [head 1 | … | head {0}]</source>
        <translation>concat = [头 1 | … | 头 {0}]</translation>
    </message>
    <message>
        <source>Q = {0} (queries)</source>
        <translation>Q = {0}（查询）</translation>
    </message>
    <message>
        <source>K = {0} (keys)</source>
        <translation>K = {0}（键）</translation>
    </message>
    <message>
        <source>V = {0} (values)</source>
        <translation>V = {0}（值）</translation>
    </message>
    <message>
        <source>{0}{1} ({2}×{3})</source>
        <translation>{0}{1}（{2}×{3}）</translation>
    </message>
    <message>
        <source> (shared W)</source>
        <translation>（共享 W）</translation>
    </message>
    <message>
        <source> = RoPE(K)·RoPE(K)ᵀ (shared W)</source>
        <translation> = RoPE(K)·RoPE(K)ᵀ（共享 W）</translation>
    </message>
    <message>
        <source> = KKᵀ (shared W)</source>
        <translation> = KKᵀ（共享 W）</translation>
    </message>
    <message>
        <source>Q (queries)</source>
        <translation>Q（查询）</translation>
    </message>
    <message>
        <source>K (keys)</source>
        <translation>K（键）</translation>
    </message>
    <message>
        <source>V (values)</source>
        <translation>V（值）</translation>
    </message>
    <message>
        <source>scores QKᵀ</source>
        <translation>分数 QKᵀ</translation>
    </message>
    <message>
        <source>scaled scores</source>
        <translation>缩放后的分数</translation>
    </message>
    <message>
        <source>X + P (sinusoidal positions)</source>
        <translation>X + P（正弦位置编码）</translation>
    </message>
    <message>
        <source>RoPE(Q) (queries after the rotation)</source>
        <translation>RoPE(Q)（旋转后的查询）</translation>
    </message>
    <message>
        <source>RoPE(K) (keys after the rotation)</source>
        <translation>RoPE(K)（旋转后的键）</translation>
    </message>
    <message>
        <source>mask (1 = allowed, 0 = masked)</source>
        <translation>掩码（1 = 允许，0 = 已掩码）</translation>
    </message>
    <message>
        <source>ALiBi bias −m·|i−j|</source>
        <translation>ALiBi 偏置 −m·|i−j|</translation>
    </message>
    <message>
        <source>shifted scores S − max(S)</source>
        <translation>平移后的分数 S − max(S)</translation>
    </message>
    <message>
        <source>The input: one row of numbers per token, the table you edit.</source>
        <translation>输入：每个词元一行数字，就是你编辑的那张表。</translation>
    </message>
    <message>
        <source>Cross-attention&apos;s second sequence: the tokens the queries look at, which make K and V.</source>
        <translation>交叉注意力的第二个序列：查询所关注的词元，由它们算出 K 和 V。</translation>
    </message>
    <message>
        <source>X plus a sinusoidal vector for each position: what the projections read when positions are sinusoidal.</source>
        <translation>X 加上每个位置的正弦向量：使用正弦位置编码时，各投影读取的就是它。</translation>
    </message>
    <message>
        <source>The queries: each token&apos;s row of X times W_Q, what it looks for.</source>
        <translation>查询：每个词元在 X 中的行乘以 W_Q，表示它在寻找什么。</translation>
    </message>
    <message>
        <source>The keys: each token&apos;s row times W_K, what it offers to the queries.</source>
        <translation>键：每个词元的行乘以 W_K，表示它向查询提供什么。</translation>
    </message>
    <message>
        <source>The queries after RoPE turned each pair of their dimensions by an angle that grows with the position.</source>
        <translation>经 RoPE 旋转后的查询：每对维度转过一个随位置增大的角度。</translation>
    </message>
    <message>
        <source>The keys after RoPE turned each pair of their dimensions by an angle that grows with the position.</source>
        <translation>经 RoPE 旋转后的键：每对维度转过一个随位置增大的角度。</translation>
    </message>
    <message>
        <source>The values: each token&apos;s row times W_V, what it passes on to the output.</source>
        <translation>值：每个词元的行乘以 W_V，表示它传给输出的内容。</translation>
    </message>
    <message>
        <source>One score per query and key: the dot product of the query&apos;s row of Q with the key&apos;s row of K.</source>
        <translation>每对查询和键一个分数：查询在 Q 中的行与键在 K 中的行的点积。</translation>
    </message>
    <message>
        <source>Which keys each query may attend to: 1 allowed, 0 masked.</source>
        <translation>每个查询可以关注哪些键：1 为允许，0 为已掩码。</translation>
    </message>
    <message>
        <source>Each row of the scaled scores minus its maximum: what a stable softmax exponentiates.</source>
        <translation>缩放后分数的每一行减去该行最大值：数值稳定的 softmax 对它取指数。</translation>
    </message>
    <message>
        <source>The softmax of each row of the scaled scores: how much each query takes from each key; a row sums to 1.</source>
        <translation>对缩放后分数的每一行做 softmax：每个查询从每个键取多少；每行之和为 1。</translation>
    </message>
    <message>
        <source>Each query&apos;s output: its row of weights times V, a weighted sum of the value rows.</source>
        <translation>每个查询的输出：它那一行权重乘以 V，即各值行的加权和。</translation>
    </message>
    <message>
        <source>Every head&apos;s output side by side, one block of columns per head.</source>
        <translation>各个头的输出并排拼接，每个头占一块列。</translation>
    </message>
    <message>
        <source>The final output: the heads side by side times W_O.</source>
        <translation>最终输出：并排拼接的各头输出乘以 W_O。</translation>
    </message>
    <message>
        <source>Shown with {0} (the Positions, mask tab).</source>
        <translation>使用{0}时显示（“位置、掩码”标签页）。</translation>
    </message>
    <message>
        <source>Shown with two heads or more (heads h, in the editor).</source>
        <translation>有两个或更多头时显示（编辑器中的“头数 h”）。</translation>
    </message>
    <message>
        <source>Shown in cross-attention (attention, in the editor).</source>
        <translation>交叉注意力时显示（编辑器中的“注意力”）。</translation>
    </message>
    <message>
        <source>sinusoidal positions</source>
        <translation>正弦位置编码</translation>
    </message>
    <message>
        <source>Shown with the causal mask, or with a window, a prefix or the custom mask (the Positions, mask tab).</source>
        <translation>使用因果掩码，或窗口、前缀、自定义掩码时显示（“位置、掩码”标签页）。</translation>
    </message>
    <message>
        <source>Shown with the output projection W_O (in the editor).</source>
        <translation>启用输出投影 W_O 时显示（在编辑器中）。</translation>
    </message>
    <message>
        <source>prefix-LM {0}</source>
        <translation>前缀语言模型 {0}</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>因果</translation>
    </message>
    <message>
        <source>window {0}</source>
        <translation>窗口 {0}</translation>
    </message>
    <message>
        <source>{0} sink(s)</source>
        <translation>{0} 个汇聚点</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>custom, no cell masked yet</source>
        <translation>自定义，尚未遮住任何单元格</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source> + mask</source>
        <translation> + 掩码</translation>
    </message>
    <message>
        <source> + ALiBi</source>
        <translation> + ALiBi</translation>
    </message>
    <message>
        <source>X + P: X plus the sinusoidal positions</source>
        <translation>X + P：X 加上正弦位置编码</translation>
    </message>
    <message>
        <source>RoPE(Q): queries turned by position</source>
        <translation>RoPE(Q)：按位置旋转的查询</translation>
    </message>
    <message>
        <source>RoPE(K): keys turned by position</source>
        <translation>RoPE(K)：按位置旋转的键</translation>
    </message>
    <message>
        <source>mask: {0}</source>
        <translation>掩码：{0}</translation>
    </message>
    <message>
        <source>ALiBi bias, m = {0:.4g}: −m·|i−j|</source>
        <translation>ALiBi 偏置，m = {0:.4g}：−m·|i−j|</translation>
    </message>
    <message>
        <source>weights = softmax</source>
        <translation>注意力权重 = softmax</translation>
    </message>
    <message>
        <source> (naive)</source>
        <translation>（朴素）</translation>
    </message>
    <message>
        <source>output = weights·V</source>
        <translation>输出 = 权重·V</translation>
    </message>
    <message>
        <source>shifted scores S − max(S): each row minus its maximum, all ≤ 0</source>
        <translation>平移后的分数 S − max(S)：每行减去该行最大值，全部 ≤ 0</translation>
    </message>
    <message>
        <source>head {0}: </source>
        <translation>头 {0}：</translation>
    </message>
</context>
<context>
    <name>PositionsMaskPanel</name>
    <message>
        <source>Positions</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>RoPE base</source>
        <translation>RoPE 底数</translation>
    </message>
    <message>
        <source>RoPE pairs</source>
        <translation>RoPE 维度配对</translation>
    </message>
    <message>
        <source>sinusoidal (added to X)</source>
        <translation>正弦（加到 X 上）</translation>
    </message>
    <message>
        <source>RoPE (rotates Q and K)</source>
        <translation>RoPE（旋转 Q 和 K）</translation>
    </message>
    <message>
        <source>The RoPE base</source>
        <translation>RoPE 底数</translation>
    </message>
    <message>
        <source>Pair i turns by position · base^(−2i/d_k): a larger base turns slower, for longer contexts.</source>
        <translation>第 i 对维度旋转 位置 · base^(−2i/d_k)：底数越大转得越慢，适合更长的上下文。</translation>
    </message>
    <message>
        <source>i with i + d/2 (Hugging Face LLaMA)</source>
        <translation>i 与 i + d/2（Hugging Face LLaMA）</translation>
    </message>
    <message>
        <source>2i with 2i + 1 (GPT-J; llama.cpp&apos;s LLaMA files)</source>
        <translation>2i 与 2i + 1（GPT-J；llama.cpp 的 LLaMA 文件）</translation>
    </message>
    <message>
        <source>Which dimensions RoPE turns together.</source>
        <translation>RoPE 把哪些维度配成一对一起旋转。</translation>
    </message>
    <message>
        <source>window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>prefix</source>
        <translation>前缀</translation>
    </message>
    <message>
        <source>sinks</source>
        <translation>汇聚点</translation>
    </message>
    <message>
        <source>ALiBi</source>
        <translation>ALiBi</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>The window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>The prefix</source>
        <translation>前缀</translation>
    </message>
    <message>
        <source>The number of sinks</source>
        <translation>汇聚点数</translation>
    </message>
    <message>
        <source>Sliding window of w keys: with the causal mask a query sees its w most recent keys (i − w &lt; j ≤ i), without it the keys with |i − j| &lt; w.</source>
        <translation>w 个键的滑动窗口：有因果掩码时，查询只看最近的 w 个键（i − w &lt; j ≤ i）；没有时，看 |i − j| &lt; w 的键。</translation>
    </message>
    <message>
        <source>Prefix-LM: the first p tokens see each other in both directions, the rest causally (self-attention only).</source>
        <translation>前缀语言模型：前 p 个词元彼此双向可见，其余按因果方式（仅限自注意力）。</translation>
    </message>
    <message>
        <source>Attention sinks: the first s keys stay visible to every later query whatever the window.</source>
        <translation>注意力汇聚点：前 s 个键对其后的每个查询始终可见，不受窗口限制。</translation>
    </message>
    <message>
        <source>ALiBi adds −m·|i − j| to the scaled scores: the further the key, the lower its score. On: the paper&apos;s slopes, one per head (2^(−8k/h) for head k = 1 … h when h is a power of two, otherwise the interleaved powers of two of the paper&apos;s code); edit them per head.</source>
        <translation>ALiBi 把 −m·|i − j| 加到缩放后的分数上：键越远，分数越低。打开时每个头使用论文中的斜率（头数 h 为 2 的幂时第 k 个头为 2^(−8k/h)，k = 1 … h；否则按论文代码交错取 2 的幂）；可以逐头修改。</translation>
    </message>
    <message>
        <source>none (order-blind without a mask or ALiBi)</source>
        <translation>无（没有掩码或 ALiBi 时不区分词序）</translation>
    </message>
    <message>
        <source>Without positions, a mask or ALiBi, attention cannot tell word order: shuffling the tokens only shuffles the output. The causal mask breaks this (a token sees only itself and earlier tokens), and so does ALiBi, whose bias −m·|i − j| depends on where the tokens stand. Sinusoidal: the original Transformer adds sin/cos of the position to X before the projections. RoPE: each pair of dimensions of q and k is turned by an angle that grows with the position, so the positions enter q·k only through the distance between the tokens.</source>
        <translation>没有位置编码、掩码或 ALiBi 时，注意力分不清词序：打乱词元只会同样地打乱输出。因果掩码打破了这一点（每个词元只能看到它自己和它之前的词元），ALiBi 也是如此，它的偏置 −m·|i − j| 取决于词元所在的位置。正弦：原始 Transformer 在投影之前把位置的 sin/cos 加到 X 上。RoPE：q 和 k 的每一对维度按随位置增长的角度旋转，因此位置只通过两个词元之间的距离影响 q·k。</translation>
    </message>
    <message>
        <source>slopes m</source>
        <translation>斜率 m</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>Apply the cells painted on the mask pane (they are kept while this is off). On shows the mask pane.</source>
        <translation>应用在掩码面板上涂出的单元格（关闭时它们会被保留）。打开时显示掩码面板。</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Remove every cell painted on the mask pane.</source>
        <translation>移除掩码面板上涂出的所有单元格。</translation>
    </message>
    <message>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
    <message>
        <source>ALiBi slope m of head {0}</source>
        <translation>头 {0} 的 ALiBi 斜率 m</translation>
    </message>
    <message>
        <source>The ALiBi slope of head {0}</source>
        <translation>头 {0} 的 ALiBi 斜率</translation>
    </message>
    <message>
        <source>none added (X holds the model&apos;s positions)</source>
        <translation>不另加（X 已含模型的位置）</translation>
    </message>
    <message>
        <source>This session&apos;s X comes from a BERT encoder, which added its learned position embeddings to the word vectors before its first layer: X already tells the order.</source>
        <translation>本会话的 X 来自 BERT 编码器，它在第一层之前已把学到的位置嵌入加到词向量上：X 本身已带有词序。</translation>
    </message>
    <message>
        <source>{0} cell(s) masked; click or drag on the mask pane</source>
        <translation>已掩码 {0} 个单元格；在掩码面板上点击或拖动</translation>
    </message>
    <message>
        <source>none; click or drag on the mask pane to mask cells</source>
        <translation>无；在掩码面板上点击或拖动以掩码单元格</translation>
    </message>
</context>
<context>
    <name>Presets</name>
    <message>
        <source>Tutorial 1 — {0}</source>
        <translation>教程示例 1 — {0}</translation>
    </message>
    <message>
        <source>Tutorial 2 — {0}</source>
        <translation>教程示例 2 — {0}</translation>
    </message>
    <message>
        <source>Random, small — 5 tokens, d_model 8</source>
        <translation>随机（小）— 5 个词元，d_model 8</translation>
    </message>
    <message>
        <source>Random, medium — 12 tokens, d_model 16</source>
        <translation>随机（中）— 12 个词元，d_model 16</translation>
    </message>
    <message>
        <source>The tutorial&apos;s first example: why attention is nearly uniform here (weights × 0.1).</source>
        <translation>教程的第一个例子：为什么这里的注意力几乎是均匀的（权重 × 0.1）。</translation>
    </message>
    <message>
        <source>The tutorial&apos;s second example: who chases whom, and why W_Q and W_K must differ.</source>
        <translation>教程的第二个例子：谁追谁，以及为什么 W_Q 和 W_K 必须不同。</translation>
    </message>
    <message>
        <source>Seeded random vectors with larger weights: sharper, uneven attention.</source>
        <translation>带随机种子的随机向量，权重更大：注意力更尖锐、更不均匀。</translation>
    </message>
    <message>
        <source>A longer random sequence, for the patterns of a bigger weight matrix.</source>
        <translation>更长的随机序列，用来观察更大权重矩阵的模式。</translation>
    </message>
</context>
<context>
    <name>Provenance</name>
    <message>
        <source>{0} · layer {1} of {2} · all {3} heads</source>
        <translation>{0} · 第 {1} 层（共 {2} 层）· 全部 {3} 个头</translation>
    </message>
    <message>
        <source>{0} · layer {1} of {2} · head {3} of {4}</source>
        <translation>{0} · 第 {1} 层（共 {2} 层）· 头 {3}（共 {4} 个）</translation>
    </message>
    <message>
        <source>{0} (edited; the weights are no longer the model&apos;s)</source>
        <translation>{0}（已编辑；权重已不再来自该模型）</translation>
    </message>
    <message>
        <source>{0} (weights edited)</source>
        <translation>{0}（权重已编辑）</translation>
    </message>
    <message>
        <source>{0} (edited)</source>
        <translation>{0}（已编辑）</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>RefreshWhenShown</name>
    <message>
        <source>The session opened does not compute (the main window says why): this shows the session before it until it does.</source>
        <translation>打开的会话无法计算（主窗口说明了原因）：在它能计算之前，这里显示的是之前那个会话。</translation>
    </message>
</context>
<context>
    <name>RopeLab</name>
    <message>
        <source>RoPE lab — QKV Desktop</source>
        <translation>RoPE 实验室 — QKV Desktop</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>shift every position by</source>
        <translation>所有位置平移</translation>
    </message>
    <message>
        <source>Add k to the position of every token: the rotations change, the scores do not.</source>
        <translation>给每个词元的位置加上 k：旋转会变，分数不变。</translation>
    </message>
    <message>
        <source>RoPE base (the session&apos;s)</source>
        <translation>RoPE 底数（本会话的）</translation>
    </message>
    <message>
        <source>This session&apos;s RoPE base, the one under Positions (mask tab): moving the slider changes it there too, and Ctrl+Z undoes it. Pair i turns by position · base^(−2i/d_k). From 1 to 10⁹, logarithmic.</source>
        <translation>本会话的 RoPE 底数，即“位置、掩码”标签页中“位置”下的那个：拖动滑块也会改动那里的值，按 Ctrl+Z 可撤销。第 i 对维度旋转 位置 · base^(−2i/d_k)。范围 1 到 10⁹，对数刻度。</translation>
    </message>
    <message>
        <source>One query and one key, pair by pair of dimensions (faint: before RoPE)</source>
        <translation>一个查询和一个键，逐对维度显示（浅色：RoPE 之前）</translation>
    </message>
    <message>
        <source>Score of two fixed vectors against their distance</source>
        <translation>两个固定向量的分数随距离的变化</translation>
    </message>
    <message>
        <source>distance m − n</source>
        <translation>距离 m − n</translation>
    </message>
    <message>
        <source>score q·k (q = k = 1/√d)</source>
        <translation>分数 q·k（q = k = 1/√d）</translation>
    </message>
    <message>
        <source>Order: without positions attention sees a set</source>
        <translation>词序：没有位置编码时，注意力看到的是一个集合</translation>
    </message>
    <message>
        <source>Shuffle tokens</source>
        <translation>打乱词元</translation>
    </message>
    <message>
        <source>Permute the tokens of X at random and compare the outputs with the original ones, permuted alike.</source>
        <translation>随机打乱 X 的词元，并把输出与按同样方式打乱的原输出比较。</translation>
    </message>
    <message>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
    <message>
        <source>RoPE turns pairs of dimensions: make d_k even to see it (d_k = {0}).</source>
        <translation>RoPE 成对旋转维度：把 d_k 设为偶数才能看到（d_k = {0}）。</translation>
    </message>
    <message>
        <source>q = {0} at position {1}, k = {2} at position {3}: R({1})q · R({3})k = {4}. Each pair i turns by θ_i = base^(−2i/d) per position: θ = {5}.</source>
        <translation>q = {0} 在位置 {1}，k = {2} 在位置 {3}：R({1})q · R({3})k = {4}。第 i 对维度每个位置旋转 θ_i = base^(−2i/d)：θ = {5}。</translation>
    </message>
    <message>
        <source>The plots show pairs 0 … {0}, the fastest-turning, of the {1} pairs.</source>
        <translation>图中只画出 {1} 对中转得最快的第 0 至 {0} 对。</translation>
    </message>
    <message>
        <source>This session&apos;s positions are not RoPE (Positions, mask tab): the main window&apos;s scores are QKᵀ, without these turns.</source>
        <translation>本会话的位置编码不是 RoPE（“位置、掩码”标签页）：主窗口的分数是 QKᵀ，没有这些旋转。</translation>
    </message>
    <message>
        <source>Shifted by {0}: the score is {1}, without the shift {2}. Over all {3}×{4} scores of this head, max |shifted − unshifted| = {5}: the positions enter the scores only through the distance m − n.</source>
        <translation>平移 {0} 后分数为 {1}，不平移为 {2}。在该头全部 {3}×{4} 个分数上，max |平移后 − 平移前| = {5}：位置只通过距离 m − n 影响分数。</translation>
    </message>
    <message>
        <source>pair {0}: +{1} rad / position</source>
        <translation>第 {0} 对：每个位置 +{1} 弧度</translation>
    </message>
    <message>
        <source>base {0}</source>
        <translation>底数 {0}</translation>
    </message>
    <message>
        <source>this base {0}</source>
        <translation>当前底数 {0}</translation>
    </message>
    <message>
        <source>At distance 0 the score is 1; it falls, with ripples, as the tokens move apart, and more slowly for a larger base (d = {0}).</source>
        <translation>距离为 0 时分数为 1；随着词元相距越远，分数波动着下降，底数越大下降越慢（d = {0}）。</translation>
    </message>
    <message>
        <source>Click “Shuffle tokens” to permute the tokens of X.</source>
        <translation>点击“打乱词元”来打乱 X 的词元顺序。</translation>
    </message>
    <message>
        <source>New order: {0}. Without positions: max |out(shuffled X) − shuffled out| = {1}, the same outputs, shuffled alike.</source>
        <translation>新顺序：{0}。没有位置编码：max |out(打乱的 X) − 打乱的 out| = {1}，输出相同，只是同样被打乱。</translation>
    </message>
    <message>
        <source>With RoPE: {0}, the order changes the outputs.</source>
        <translation>使用 RoPE：{0}，词序改变了输出。</translation>
    </message>
</context>
<context>
    <name>RunLabs</name>
    <message>
        <source>&amp;KV-cache stepper…</source>
        <translation>KV 缓存逐步解码(&amp;K)……</translation>
    </message>
    <message>
        <source>Decode the session one token at a time with a key/value cache</source>
        <translation>用键/值缓存逐个词元解码本会话</translation>
    </message>
    <message>
        <source>&amp;Online softmax and FlashAttention tiles…</source>
        <translation>在线 softmax 与 FlashAttention 分块(&amp;O)……</translation>
    </message>
    <message>
        <source>Softmax block by block, and attention tile by tile without the n × n matrix</source>
        <translation>逐块计算 softmax，逐块计算注意力而不存 n × n 矩阵</translation>
    </message>
    <message>
        <source>&amp;Gradient lab…</source>
        <translation>梯度实验室(&amp;G)……</translation>
    </message>
    <message>
        <source>Train W_Q, W_K and W_V towards a pattern and watch the loss and the gradients</source>
        <translation>朝一个模式训练 W_Q、W_K 和 W_V，观察损失和梯度</translation>
    </message>
</context>
<context>
    <name>ScalingLab</name>
    <message>
        <source>Scaling lab — QKV Desktop</source>
        <translation>缩放实验室 — QKV Desktop</translation>
    </message>
    <message>
        <source>&lt;b&gt;Why divide by √d_k?&lt;/b&gt; Scaled dot-product attention divides QKᵀ by √d_k before the softmax. If the components of q and k are independent with mean 0 and variance 1, q·k is a sum of d_k products, so its variance is d_k. Unscaled, the scores grow with d_k and softmax turns one-hot: the largest weight → 1, the entropy → 0, and the softmax Jacobian diag(p) − ppᵀ → 0 (the tutorial&apos;s p(1−p) is its diagonal). Then almost no gradient reaches the scores, so W_Q and W_K barely learn, while the path through V keeps its gradient. Dividing by √d_k brings the variance back to 1 at every d_k: the convention that gives unit score variance at initialisation, not a proven optimum. GPT-3 175B has d_k = 12288 / 96 = 128, where unscaled scores would have variance 128 (GPT-4&apos;s configuration is unpublished).</source>
        <translation>&lt;b&gt;为什么要除以 √d_k？&lt;/b&gt;缩放点积注意力先把 QKᵀ 除以 √d_k 再做 softmax。若 q 和 k 的各分量相互独立、均值为 0、方差为 1，q·k 是 d_k 个乘积之和，方差为 d_k。不缩放时，分数随 d_k 增大，softmax 变成 one-hot：最大权重 → 1，熵 → 0，softmax 的雅可比矩阵 diag(p) − ppᵀ → 0（教程里的 p(1−p) 是它的对角线）。这时几乎没有梯度传到分数上，W_Q 和 W_K 几乎学不动，而经过 V 的那条路径仍有梯度。除以 √d_k 让每个 d_k 下的方差都回到 1：这是让初始化时分数方差为 1 的约定，并不是被证明的最优值。GPT-3 175B 的 d_k = 12288 / 96 = 128，不缩放时分数方差将是 128（GPT-4 的配置没有公开）。</translation>
    </message>
    <message>
        <source>Random q, k</source>
        <translation>随机 q、k</translation>
    </message>
    <message>
        <source>This session</source>
        <translation>当前会话</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>Seeded random unit-variance queries and keys of each dimension d_k.</source>
        <translation>用随机种子生成的单位方差查询和键，覆盖每个维度 d_k。</translation>
    </message>
    <message>
        <source>The current head&apos;s own QKᵀ divided by √d for each d: what would scaling do to these scores?</source>
        <translation>当前头自己的 QKᵀ 分别除以每个 d 的 √d：缩放会对这些分数产生什么影响？</translation>
    </message>
    <message>
        <source>Type scores and compare their softmax with and without scaling (the tutorial&apos;s table).</source>
        <translation>输入一组分数，比较缩放前后的 softmax（教程中的表格）。</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>keys per query</source>
        <translation>每个查询的键数</translation>
    </message>
    <message>
        <source>Seed of the random queries and keys.</source>
        <translation>随机查询和键的随机种子。</translation>
    </message>
    <message>
        <source>How many keys each random query scores (n).</source>
        <translation>每个随机查询要打分的键数（n）。</translation>
    </message>
    <message>
        <source>The seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>The number of keys</source>
        <translation>键数</translation>
    </message>
    <message>
        <source>Each point averages {0} random queries, each scoring {1} random keys (components ~ {2}).</source>
        <translation>每个点是 {0} 个随机查询的平均值，每个查询对 {1} 个随机键打分（分量 ~ {2}）。</translation>
    </message>
    <message>
        <source>The scores of this session are not all finite; there is nothing to sweep.</source>
        <translation>当前会话的分数并非都是有限值；无法进行扫描。</translation>
    </message>
    <message>
        <source>this d_k = {0}</source>
        <translation>当前 d_k = {0}</translation>
    </message>
    <message>
        <source> Sampled {0} of {1} query rows.</source>
        <translation>抽样了 {1} 个查询行中的 {0} 个。</translation>
    </message>
    <message>
        <source> With the mask, each row here still spreads over all its keys: at this d_k the curves need not match the weights pane.</source>
        <translation>有掩码时，这里的每一行仍分布在它的所有键上：在当前 d_k 处，曲线不一定与权重面板一致。</translation>
    </message>
    <message>
        <source> Here the two curves lie on one another: these scores are so close together that the softmax is nearly uniform with or without the division.</source>
        <translation>这里两条曲线重叠在一起：这些分数彼此非常接近，无论是否做除法，softmax 都几乎是均匀的。</translation>
    </message>
    <message>
        <source>{3} of head {0} ({1}×{2}), before the mask and the temperature. The red curve is the softmax of these scores as they are; the blue one divides them by √d for each d on the axis. The line marks this session&apos;s d_k. The scores are this session&apos;s at every d: a head with a larger d_k would also have larger scores (their variance grows with d_k, as the Random q, k tab shows), so this shows what the division alone does to these scores.</source>
        <translation>头 {0} 的 {3}（{1}×{2}），尚未应用掩码和温度。红色曲线是这些分数原样做 softmax 的结果；蓝色曲线则对横轴上的每个 d 先除以 √d。竖线标出当前会话的 d_k。每个 d 用的都是本会话的分数：d_k 更大的头，分数本身也会更大（方差随 d_k 增长，见“随机 q、k”标签页），所以这里只显示除法本身对这些分数的作用。</translation>
    </message>
</context>
<context>
    <name>ScoreBars</name>
    <message>
        <source>type at least two scores separated by commas, e.g. 2, 1.5, 0.5</source>
        <translation>请输入至少两个用逗号分隔的分数，例如 2, 1.5, 0.5</translation>
    </message>
    <message>
        <source>at most {0} scores, got {1}</source>
        <translation>最多 {0} 个分数，实际有 {1} 个</translation>
    </message>
    <message>
        <source>score {0}: {1}</source>
        <translation>第 {0} 个分数：{1}</translation>
    </message>
    <message>
        <source>scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>d_k (middle)</source>
        <translation>d_k（中图）</translation>
    </message>
    <message>
        <source>d_k (right)</source>
        <translation>d_k（右图）</translation>
    </message>
    <message>
        <source>Raw scores q·k of one query against its keys, separated by commas (e.g. 2, 1.5, 0.5, -0.5, -1). Enter or leaving the box plots them.</source>
        <translation>一个查询对其各个键的原始分数 q·k，用逗号分隔（例如 2, 1.5, 0.5, -0.5, -1）。按回车或离开输入框后即绘制。</translation>
    </message>
    <message>
        <source>The middle chart divides the scores by √ of this d_k.</source>
        <translation>中间的图把分数除以这个 d_k 的平方根。</translation>
    </message>
    <message>
        <source>The right chart divides the scores by √ of this d_k.</source>
        <translation>右边的图把分数除以这个 d_k 的平方根。</translation>
    </message>
    <message>
        <source>The middle chart&apos;s d_k</source>
        <translation>中图的 d_k</translation>
    </message>
    <message>
        <source>The right chart&apos;s d_k</source>
        <translation>右图的 d_k</translation>
    </message>
    <message>
        <source>Softmax weights of the scores: the larger the divisor, the flatter the distribution.</source>
        <translation>分数的 softmax 权重：除数越大，分布越平滑。</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>no scaling (÷ 1)</source>
        <translation>不缩放（÷ 1）</translation>
    </message>
    <message>
        <source>d_k = {0} (÷ √{0} = {1})</source>
        <translation>d_k = {0}（÷ √{0} = {1}）</translation>
    </message>
    <message>
        <source>Not plotted: {0}. The charts still show the scores {1}.</source>
        <translation>未绘制：{0}。图表仍显示分数 {1}。</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>熵</translation>
    </message>
</context>
<context>
    <name>SessionController</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Could not save {0}: the folder {1} does not exist.</source>
        <translation>无法保存 {0}：文件夹 {1} 不存在。</translation>
    </message>
    <message>
        <source>Could not save {0}: {1}</source>
        <translation>无法保存 {0}：{1}</translation>
    </message>
    <message>
        <source>Autosave failed: {0}</source>
        <translation>自动保存失败：{0}</translation>
    </message>
    <message>
        <source>The autosaved work could not be read: {0}</source>
        <translation>无法读取自动保存的内容：{0}</translation>
    </message>
    <message>
        <source>QKV Desktop did not close properly last time. Restore the unsaved work on {0} from the autosave of {1}?</source>
        <translation>QKV Desktop 上次没有正常关闭。要从 {1} 的自动保存中恢复“{0}”中未保存的工作吗？</translation>
    </message>
    <message>
        <source>Restore autosaved work</source>
        <translation>恢复自动保存的工作</translation>
    </message>
</context>
<context>
    <name>Stale</name>
    <message>
        <source>These are the numbers of the last result that computed: the table&apos;s values do not compute (the banner above the panes says why).</source>
        <translation>这些是上一次算出的结果中的数值：表格中的值无法计算（原因见各面板上方的横幅）。</translation>
    </message>
</context>
<context>
    <name>StepControls</name>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation>◀ 后退</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>单步 ▶</translation>
    </message>
    <message>
        <source>steps/s</source>
        <translation>步/秒</translation>
    </message>
    <message>
        <source>The steps per second</source>
        <translation>每秒步数</translation>
    </message>
    <message>
        <source>Steps played per second</source>
        <translation>每秒播放的步数</translation>
    </message>
    <message>
        <source>Back to the first step</source>
        <translation>回到第一步</translation>
    </message>
    <message>
        <source>One step back (←)</source>
        <translation>后退一步（←）</translation>
    </message>
    <message>
        <source>One step forward (→)</source>
        <translation>前进一步（→）</translation>
    </message>
    <message>
        <source>Play or pause the steps (space)</source>
        <translation>播放或暂停（空格）</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>step {0} of {1}</source>
        <translation>第 {0} 步，共 {1} 步</translation>
    </message>
    <message>
        <source>no steps</source>
        <translation>没有步骤</translation>
    </message>
</context>
<context>
    <name>SweepPlots</name>
    <message>
        <source>max weight</source>
        <translation>最大权重</translation>
    </message>
    <message>
        <source>entropy (nats)</source>
        <translation>熵（奈特）</translation>
    </message>
    <message>
        <source>mean p(1−p)</source>
        <translation>平均 p(1−p)</translation>
    </message>
    <message>
        <source>‖diag(p) − ppᵀ‖ per row</source>
        <translation>每行的 ‖diag(p) − ppᵀ‖</translation>
    </message>
    <message>
        <source>Largest weight: → 1 is one-hot</source>
        <translation>最大权重：→ 1 即 one-hot</translation>
    </message>
    <message>
        <source>Row entropy: → 0 is one-hot</source>
        <translation>行熵：→ 0 即 one-hot</translation>
    </message>
    <message>
        <source>∂p_i/∂s_i = p_i(1−p_i): → 0 when saturated</source>
        <translation>∂p_i/∂s_i = p_i(1−p_i)：饱和时 → 0</translation>
    </message>
    <message>
        <source>Whole softmax Jacobian: → 0 when saturated</source>
        <translation>整个 softmax 雅可比矩阵：饱和时 → 0</translation>
    </message>
    <message>
        <source>Mean of p(1−p), the tutorial&apos;s 平均梯度. It is ∂p_i/∂s_i, only the diagonal of the softmax Jacobian diag(p) − ppᵀ, whose off-diagonal terms are −p_i·p_j.</source>
        <translation>p(1−p) 的平均值，即教程中的“平均梯度”。它是 ∂p_i/∂s_i，只是 softmax 雅可比矩阵 diag(p) − ppᵀ 的对角线；非对角线上的项为 −p_i·p_j。</translation>
    </message>
    <message>
        <source>uniform attention (1/n, log n, (1/n)(1−1/n), √((1/n)(1−1/n)))</source>
        <translation>均匀注意力（1/n、log n、(1/n)(1−1/n)、√((1/n)(1−1/n))）</translation>
    </message>
    <message>
        <source>Red: softmax of the unscaled scores. Blue: of the scores divided by √d_k. Dashed: the value for uniform weights over n keys.</source>
        <translation>红色：未缩放分数的 softmax。蓝色：除以 √d_k 后分数的 softmax。虚线：n 个键上均匀权重时的值。</translation>
    </message>
    <message>
        <source>The largest softmax weight, averaged over rows: 1/n for uniform attention, 1 for one-hot.</source>
        <translation>softmax 最大权重的行平均值：均匀注意力时为 1/n，one-hot 时为 1。</translation>
    </message>
    <message>
        <source>Entropy of each row of weights in nats, averaged: log n for uniform, 0 for one-hot.</source>
        <translation>每行权重的熵（单位：奈特）的平均值：均匀时为 log n，one-hot 时为 0。</translation>
    </message>
    <message>
        <source>Frobenius norm of the whole Jacobian diag(p) − ppᵀ of each row, averaged: how much the weights respond to the scores at all. Near 0 no gradient reaches the scores, so W_Q and W_K get almost no gradient, while the path through V keeps its own.</source>
        <translation>每一行整个雅可比矩阵 diag(p) − ppᵀ 的 Frobenius 范数的平均值：权重对分数究竟有多敏感。接近 0 时梯度传不到分数上，W_Q 和 W_K 几乎得不到梯度，而经过 V 的路径仍保有自己的梯度。</translation>
    </message>
    <message>
        <source>d_k (log scale)</source>
        <translation>d_k（对数刻度）</translation>
    </message>
    <message>
        <source>without ÷√d_k</source>
        <translation>不除以 √d_k</translation>
    </message>
    <message>
        <source>with ÷√d_k</source>
        <translation>除以 √d_k</translation>
    </message>
</context>
<context>
    <name>SymmetryView</name>
    <message>
        <source>&lt;b&gt;Why three matrices?&lt;/b&gt; With one shared W (Q = K) the scores are KKᵀ, which is symmetric: the score of i for j equals that of j for i (s&lt;sub&gt;ij&lt;/sub&gt; = s&lt;sub&gt;ji&lt;/sub&gt;). In “猫 追 老鼠”, 追 looks at 猫 to ask who chases, while 猫 looks at 追 to ask what the cat does: different questions, which one shared projection cannot score differently, so W_Q and W_K differ (and W_V decides what is passed on). Both maps share one colour scale.</source>
        <translation>&lt;b&gt;为什么要三个矩阵？&lt;/b&gt;若共用一个 W（Q = K），分数就是 KKᵀ，它是对称的：i 对 j 的分数等于 j 对 i 的分数（s&lt;sub&gt;ij&lt;/sub&gt; = s&lt;sub&gt;ji&lt;/sub&gt;）。在“猫 追 老鼠”中，“追”看向“猫”是在问谁在追，而“猫”看向“追”是在问猫做了什么：问题不同，共用的一个投影却无法给它们打出不同的分数，所以 W_Q 与 W_K 要不同（W_V 则决定传递什么内容）。两张图使用同一色标。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; (shared: W_Q = W_K)</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;（共享：W_Q = W_K）</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; (separate W_Q, W_K)</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;（独立的 W_Q、W_K）</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; (keys against keys)</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;（键对键）</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; (as if W_Q = W_K)</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;（假设 W_Q = W_K）</translation>
    </message>
    <message>
        <source>The scores this head really uses: {0}.</source>
        <translation>这个头实际使用的分数：{0}。</translation>
    </message>
    <message>
        <source>{0}: the key sequence scored against itself, symmetric across the diagonal. It is not what one shared W gives here: the queries come from X.</source>
        <translation>{0}：键序列与自身的打分，关于对角线对称。这里它并不是共用一个 W 的结果：查询来自 X。</translation>
    </message>
    <message>
        <source>The scores if W_Q were W_K: {0}, symmetric across the diagonal (its weights are not: each row has its own softmax sum).</source>
        <translation>若 W_Q = W_K，分数为 {0}，关于对角线对称（其权重并不对称：每一行都有自己的 softmax 总和）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cross-attention:&lt;/b&gt; the queries come from X and the keys from X_kv, so even with one shared W the scores {0} are not {1}, nor symmetric. The symmetry this view is about is self-attention&apos;s: the right-hand map is the key sequence scored against itself.</source>
        <translation>&lt;b&gt;交叉注意力：&lt;/b&gt;查询来自 X，键来自 X_kv，所以即使共用一个 W，分数 {0} 也不等于 {1}，也不对称。这个视图讲的对称性属于自注意力：右边的图是键序列与自身的打分。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Symmetric scores, asymmetric weights.&lt;/b&gt; With W_Q = W_K, {5}[{0}, {1}] = {5}[{1}, {0}] = {2}, yet w[{1}→{0}] = {3} and w[{0}→{1}] = {4}: softmax divides each row by its own sum Z = Σ exp(s), so w&lt;sub&gt;ij&lt;/sub&gt; / w&lt;sub&gt;ji&lt;/sub&gt; = Z&lt;sub&gt;j&lt;/sub&gt; / Z&lt;sub&gt;i&lt;/sub&gt;. What one shared W makes equal is the score, not the attention.</source>
        <translation>&lt;b&gt;分数对称，权重不对称。&lt;/b&gt;W_Q = W_K 时 {5}[{0}, {1}] = {5}[{1}, {0}] = {2}，但 w[{1}→{0}] = {3}，w[{0}→{1}] = {4}：softmax 用每一行自己的总和 Z = Σ exp(s) 去除，所以 w&lt;sub&gt;ij&lt;/sub&gt; / w&lt;sub&gt;ji&lt;/sub&gt; = Z&lt;sub&gt;j&lt;/sub&gt; / Z&lt;sub&gt;i&lt;/sub&gt;。共用一个 W 让分数相等，而不是让注意力相等。</translation>
    </message>
    <message>
        <source>n/a (cross-attention)</source>
        <translation>不适用（交叉注意力）</translation>
    </message>
    <message>
        <source>asymmetry {0}</source>
        <translation>非对称度 {0}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Symmetric scores, asymmetric weights&lt;/b&gt; needs two tokens that see each other both ways; under this mask none do. Turn the mask off to compare a pair&apos;s weights.</source>
        <translation>&lt;b&gt;分数对称，权重不对称&lt;/b&gt;需要两个能互相看见的词元；在这个掩码下没有这样的词元对。关掉掩码，才能比较一对词元的权重。</translation>
    </message>
</context>
<context>
    <name>Teaching</name>
    <message>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>讲解</translation>
    </message>
    <message>
        <source>Diagnostics</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>QKᵀ | KKᵀ</source>
        <translation>QKᵀ | KKᵀ</translation>
    </message>
    <message>
        <source>&amp;Lab</source>
        <translation>实验室(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Scaling lab…</source>
        <translation>缩放实验室（÷√d_k）(&amp;S)……</translation>
    </message>
    <message>
        <source>Plots of why the scores are divided by √d_k (Ctrl+L)</source>
        <translation>用图表说明为什么分数要除以 √d_k（Ctrl+L）</translation>
    </message>
    <message>
        <source>&amp;RoPE lab…</source>
        <translation>RoPE 实验室(&amp;R)……</translation>
    </message>
    <message>
        <source>One query and one key turned by their positions, the scores under a shift, the decay with distance per base, and shuffled tokens (Ctrl+R)</source>
        <translation>按位置旋转的一个查询和一个键、平移下的分数、各底数下随距离的衰减，以及打乱词元（Ctrl+R）</translation>
    </message>
    <message>
        <source>× 100 the inputs</source>
        <translation>输入 × 100</translation>
    </message>
    <message>
        <source>Multiply every input vector by 100 (undoable): with the naive softmax the scores soon overflow exp.</source>
        <translation>把每个输入向量乘以 100（可撤销）：使用朴素 softmax 时，分数很快会让 exp 溢出。</translation>
    </message>
</context>
<context>
    <name>TilesLab</name>
    <message>
        <source>Online softmax and FlashAttention tiles — QKV Desktop</source>
        <translation>在线 softmax 与 FlashAttention 分块 — QKV Desktop</translation>
    </message>
    <message>
        <source>Online softmax</source>
        <translation>在线 softmax</translation>
    </message>
    <message>
        <source>FlashAttention tiles</source>
        <translation>FlashAttention 分块</translation>
    </message>
    <message>
        <source>query row</source>
        <translation>查询行</translation>
    </message>
    <message>
        <source>multiply the scores by</source>
        <translation>分数乘以</translation>
    </message>
    <message>
        <source>block size</source>
        <translation>块大小</translation>
    </message>
    <message>
        <source>The factor</source>
        <translation>倍数</translation>
    </message>
    <message>
        <source>The row of the scores walked block by block</source>
        <translation>逐块走过的那一行分数</translation>
    </message>
    <message>
        <source>The query row</source>
        <translation>查询行</translation>
    </message>
    <message>
        <source>query block</source>
        <translation>查询块</translation>
    </message>
    <message>
        <source>key block</source>
        <translation>键块</translation>
    </message>
    <message>
        <source>{0} → {1} blocks</source>
        <translation>{0} → {1} 块</translation>
    </message>
    <message>
        <source>{0} tiles are too many to step through (at most {1}): choose larger blocks.</source>
        <translation>{0} 个分块太多，无法逐步查看（最多 {1} 个）：请选择更大的块。</translation>
    </message>
    <message>
        <source>exp(s − m) / l so far (the softmax of the columns seen)</source>
        <translation>目前的 exp(s − m) / l（已看过各列的 softmax）</translation>
    </message>
    <message>
        <source>online softmax (after the last block)</source>
        <translation>在线 softmax（最后一块之后）</translation>
    </message>
    <message>
        <source>naive exp(s) / Σ exp(s) of the same row</source>
        <translation>同一行的朴素 exp(s) / Σ exp(s)</translation>
    </message>
    <message>
        <source>Online against the stable softmax: max |difference| = {0}.</source>
        <translation>在线与稳定 softmax 相比：max |差| = {0}。</translation>
    </message>
    <message>
        <source>The naive formula breaks on this row: exp(s) overflows to ∞ above s ≈ {1} (the largest score is {0}) and ∞/∞ is NaN; the online softmax only ever exponentiates s − m ≤ 0.</source>
        <translation>朴素公式在这一行失效：s 超过约 {1} 时 exp(s) 溢出为 ∞（最大的分数是 {0}），而 ∞/∞ 是 NaN；在线 softmax 只对 s − m ≤ 0 取指数。</translation>
    </message>
    <message>
        <source>The naive formula breaks on this row: every exp(s) is finite (the largest score is {0}, below {1}), but their sum overflows to ∞, so every weight is exp(s) / ∞ = 0 and the row sums to 0; the online softmax sums exp(s − m) ≤ 1 instead.</source>
        <translation>朴素公式在这一行失效：每个 exp(s) 都是有限的（最大的分数是 {0}，低于 {1}），但它们的和溢出为 ∞，于是每个权重都是 exp(s) / ∞ = 0，这一行的和为 0；在线 softmax 求和的是 exp(s − m) ≤ 1。</translation>
    </message>
    <message>
        <source>The naive formula still works here: the largest score is {0}, and exp overflows only above {2}. Multiply the scores by more than {1} to make it overflow.</source>
        <translation>朴素公式在这里仍然可用：最大的分数是 {0}，而 exp 只在超过 {2} 时才溢出。把分数乘以大于 {1} 的数就会溢出。</translation>
    </message>
    <message>
        <source>The naive formula still works here: the largest score is {0}, and exp overflows only above {1}, beyond this box&apos;s factor; make the session&apos;s scores larger (× 100 the inputs).</source>
        <translation>朴素公式在这里仍然可用：最大的分数是 {0}，而 exp 只在超过 {1} 时才溢出，这超出了此框的倍数范围；请让会话的分数更大（输入 × 100）。</translation>
    </message>
    <message>
        <source>{0}: tile {1} of {2} (query block {3}, key block {4})</source>
        <translation>{0}：第 {1} 块，共 {2} 块（查询块 {3}，键块 {4}）</translation>
    </message>
    <message>
        <source>After the last tile the output equals standard attention: max |flash − attention| = {0} over all {1}×{2} outputs.</source>
        <translation>最后一块之后，输出等于标准注意力：全部 {1}×{2} 个输出上 max |flash − 注意力| = {0}。</translation>
    </message>
    <message>
        <source>Scale the row up to see the naive formula overflow while the online one does not (the verdict below says by how much).</source>
        <translation>把这一行放大，看朴素公式溢出而在线 softmax 不会（下方的结论会说要放大多少）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The softmax&apos;s maximum and sum in one pass, attention in tiles.&lt;/b&gt; The online softmax keeps a running maximum m and a running sum l = Σ exp(s − m); when a block raises m, the sum so far is multiplied by exp(m_old − m_new). FlashAttention does the same per query block over key tiles, so the n × n matrix is never stored. Space plays, ← → step.</source>
        <translation>&lt;b&gt;一遍求出 softmax 的最大值与总和，分块计算注意力。&lt;/b&gt;在线 softmax 维护当前最大值 m 和累加和 l = Σ exp(s − m)；某块使 m 变大时，已有的和乘以 exp(m_old − m_new)。FlashAttention 对每个查询块按键块做同样的事，所以从不存储 n × n 矩阵。空格播放，← → 单步。</translation>
    </message>
    <message>
        <source>row {0} of {1} (block {2}: columns {3}…{4})</source>
        <translation>{1} 的第 {0} 行（第 {2} 块：列 {3}…{4}）</translation>
    </message>
    <message>
        <source>The naive formula breaks on this row: every exp(s) underflows to 0 (the largest score is {0}, below −745) and 0/0 is NaN; the online softmax exponentiates s − m, whose largest is 0.</source>
        <translation>朴素公式在这一行失效：每个 exp(s) 都下溢为 0（最大的分数是 {0}，低于 −745），而 0/0 是 NaN；在线 softmax 对 s − m 取指数，其中最大的是 0。</translation>
    </message>
    <message>
        <source>The naive formula still works here: every score is negative (the largest is {0}), so exp cannot overflow; multiplied by more than {1}, every exp(s) underflows to 0 and 0/0 is NaN.</source>
        <translation>朴素公式在这里仍然可用：每个分数都是负数（最大的是 {0}），所以 exp 不会溢出；乘以大于 {1} 的数后，每个 exp(s) 都下溢为 0，而 0/0 是 NaN。</translation>
    </message>
    <message>
        <source>The naive formula still works here: the largest score is 0, and no factor makes exp overflow.</source>
        <translation>朴素公式在这里仍然可用：最大的分数是 0，任何倍数都不会让 exp 溢出。</translation>
    </message>
    <message>
        <source>block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>columns</source>
        <translation>列</translation>
    </message>
    <message>
        <source>block max</source>
        <translation>块最大值</translation>
    </message>
    <message>
        <source>rescale exp(m_old − m_new)</source>
        <translation>重缩放 exp(m_old − m_new)</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>rescale</source>
        <translation>重缩放</translation>
    </message>
    <message>
        <source>Skipped: the mask hides every key of this tile from every query.</source>
        <translation>跳过：掩码对每个查询都隐藏了这一块的每个键。</translation>
    </message>
    <message>
        <source>Queries {0}…{1} × keys {2}…{3}: this tile&apos;s scores update the query block&apos;s running m and l and its output accumulator.</source>
        <translation>查询 {0}…{1} × 键 {2}…{3}：这一块的分数更新该查询块的当前 m、l 和输出累加器。</translation>
    </message>
    <message>
        <source>partial output of queries {0}…{1} (accumulator / l)</source>
        <translation>查询 {0}…{1} 的部分输出（累加器 / l）</translation>
    </message>
    <message>
        <source>· columns 0…{0} of {1}</source>
        <translation>· 第 0…{0} 列（共 {1} 列）</translation>
    </message>
    <message>
        <source>n × n scores</source>
        <translation>n × n 分数</translation>
    </message>
    <message>
        <source>standard</source>
        <translation>标准</translation>
    </message>
    <message>
        <source>Memory of one head, d_k = {0}, float32 (4 B): standard attention holds the n × n scores and weights, O(n²); FlashAttention only Q, K, V, the output, m and l and one tile, O(n·d). Bold: this session.</source>
        <translation>一个头的内存，d_k = {0}，float32（4 字节）：标准注意力要存 n × n 的分数和权重，O(n²)；FlashAttention 只存 Q、K、V、输出、m、l 和一块，O(n·d)。粗体：本会话。</translation>
    </message>
</context>
<context>
    <name>TokenTables</name>
    <message>
        <source>Queries: X (the sequence that asks, e.g. decoder)</source>
        <translation>查询：X（提问的序列，例如解码器）</translation>
    </message>
    <message>
        <source>Keys and values: X_kv (the other sequence, e.g. encoder)</source>
        <translation>键和值：X_kv（另一个序列，例如编码器）</translation>
    </message>
    <message>
        <source>In cross-attention K = X_kv·W_K and V = X_kv·W_V; the token actions act on the table you clicked last.</source>
        <translation>交叉注意力中 K = X_kv·W_K，V = X_kv·W_V；词元操作作用于你最后点击的那个表。</translation>
    </message>
</context>
<context>
    <name>Tour</name>
    <message>
        <source>1 · Edit a value</source>
        <translation>1 · 编辑一个数值</translation>
    </message>
    <message>
        <source>This table is X: one row per token, one column per dimension. Double-click a value (or type over it), enter a new number and press Enter.</source>
        <translation>这张表就是 X：每个词元一行，每个维度一列。双击一个数值（或直接输入覆盖它），输入新的数字后按回车。</translation>
    </message>
    <message>
        <source>2 · Watch every pane change</source>
        <translation>2 · 看每个面板一起变化</translation>
    </message>
    <message>
        <source>Q, K and V, the scores QKᵀ, the scaled scores, the weights and the output are all recomputed from your edit at once: see which cells moved.</source>
        <translation>Q、K、V、分数 QKᵀ、缩放后的分数、权重和输出都会根据你的修改立即重新计算：看看哪些单元格变了。</translation>
    </message>
    <message>
        <source>Q, K and V, the scores QKᵀ, the scaled scores, the weights and the output are all recomputed the moment a value of X changes: edit one in the table and see which cells move.</source>
        <translation>只要 X 的一个值改变，Q、K、V、分数 QKᵀ、缩放后的分数、权重和输出都会立即重新计算：在表格中修改一个值，看看哪些单元格会变。</translation>
    </message>
    <message>
        <source>3 · Hover a weight</source>
        <translation>3 · 把鼠标移到一个权重上</translation>
    </message>
    <message>
        <source>Point at a weight: the status bar says how it is computed; orange outlines show the cells it comes from, and the row of V it weighs into the output.</source>
        <translation>指向一个权重：状态栏会说明它是怎么算出来的；橙色方框标出它来自哪些单元格，以及它加权计入输出的 V 的那一行。</translation>
    </message>
    <message>
        <source>4 · Click it to have it explained</source>
        <translation>4 · 点击它查看讲解</translation>
    </message>
    <message>
        <source>Click the cell to pin it: the Explain panel writes out its whole computation with this session&apos;s numbers. Click it again to unpin.</source>
        <translation>点击单元格即可固定它：讲解面板会用当前会话的数值写出它的完整计算过程。再次点击取消固定。</translation>
    </message>
    <message>
        <source>5 · Try the scaling lab</source>
        <translation>5 · 试试缩放实验室</translation>
    </message>
    <message>
        <source>Lab → Scaling lab (Ctrl+L) shows why the scores are divided by √d_k. Help → Getting started brings this tour back.</source>
        <translation>实验室 → 缩放实验室（Ctrl+L）展示为什么要把分数除以 √d_k。帮助 → 入门导览可以再次打开本导览。</translation>
    </message>
    <message>
        <source>The cell is pinned: the Explain panel writes out its whole computation with this session&apos;s numbers. Click it again to unpin.</source>
        <translation>单元格已固定：讲解面板用本会话的数字写出它的完整计算过程。再次点击即可取消固定。</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>第 {0} 步，共 {1} 步</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Skip the tour</source>
        <translation>跳过导览</translation>
    </message>
</context>
<context>
    <name>ValuesNote</name>
    <message>
        <source>The cells are too small for their values with 4 decimals, even in the smallest legible font.</source>
        <translation>即使用最小的可读字号，单元格也放不下保留 4 位小数的数值。</translation>
    </message>
    <message>
        <source>values hidden: hover a cell</source>
        <translation>数值已隐藏：悬停单元格查看</translation>
    </message>
    <message>
        <source>Hover a cell to read its value at the cursor (and its formula in the status bar), or give the pane room: a larger window, or fewer panes or the editor hidden from the View menu.</source>
        <translation>把鼠标悬停在单元格上，即可在光标处读到它的数值（状态栏里还有它的公式）；也可以给面板更多空间：放大窗口，或在视图菜单里隐藏一些面板或编辑器。</translation>
    </message>
    <message>
        <source>values hidden: enlarge the dock to read them</source>
        <translation>数值已隐藏：放大停靠窗口即可看到</translation>
    </message>
    <message>
        <source>Make the dock larger, or float it, to read the values.</source>
        <translation>把停靠窗口放大或让它浮动，即可读到数值。</translation>
    </message>
    <message>
        <source>This matrix has more than {0} cells: their values are never drawn, whatever the pane&apos;s size. Hover a cell to read its value exactly at the cursor (and its formula in the status bar), or export the data (File ▸ Export data…) to read them all.</source>
        <translation>这个矩阵的单元格超过 {0} 个：无论面板多大，都不会画出数值。把鼠标悬停在单元格上，即可在光标处读到它的准确数值（状态栏里还有它的公式）；要读全部数值，请导出数据（文件 ▸ 导出数据……）。</translation>
    </message>
    <message>
        <source>values hidden: more than {0} cells</source>
        <translation>数值已隐藏：单元格超过 {0} 个</translation>
    </message>
    <message>
        <source>These maps have more than {0} cells: their values are never drawn, whatever the dock&apos;s size. Hover a cell of the scores pane to read a QKᵀ value exactly (at the cursor and in the status bar), or export the data (File ▸ Export data…).</source>
        <translation>这两张图的单元格超过 {0} 个：无论停靠窗口多大，都不会画出数值。把鼠标悬停在分数面板的单元格上，即可读到 QKᵀ 的准确数值（在光标处和状态栏里）；也可以导出数据（文件 ▸ 导出数据……）。</translation>
    </message>
</context>
<context>
    <name>ViewScale</name>
    <message>
        <source>&amp;Zoom ({0:.0%})</source>
        <translation>显示比例(&amp;Z)（{0:.0%}）</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Leave presentation mode</source>
        <translation>退出演示模式</translation>
    </message>
    <message>
        <source>The panes alone, full screen and large, for a projector (F5; Esc leaves).</source>
        <translation>只显示面板，全屏放大，适合投影（F5；按 Esc 退出）。</translation>
    </message>
    <message>
        <source>Presentation mode: F5 or Esc to leave</source>
        <translation>演示模式：按 F5 或 Esc 退出</translation>
    </message>
</context>
<context>
    <name>_BackgroundCombo</name>
    <message>
        <source>White</source>
        <translation>白色</translation>
    </message>
    <message>
        <source>Transparent</source>
        <translation>透明</translation>
    </message>
</context>
</TS>
