#include "core/analysis/opmatcher.h"

#include "core/ir/attribute.h"
#include "core/ir/attributehash.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace ps {

namespace {

/// Where an operand comes from, in the numbering of the program before: a producer op and
/// result index, a block argument (owner op, index) or a kwarg (keyword hash).
struct Source
{
    int kind = 0; ///< 0 null, 1 result, 2 block argument, 3 kwarg
    int64_t a = 0;
    int64_t b = 0;
    bool operator==(const Source &) const = default;
};

size_t hashSource(const Source &s)
{
    return hashCombine(hashCombine(size_t(s.kind), size_t(s.a)), size_t(s.b));
}

/// Attributes hashed independently of their order.
size_t hashAttributes(const Operation &op)
{
    size_t h = op.attributes().size();
    for (const NamedAttribute &a : op.attributes()) {
        // origin_id names the op's own pre-lowering id: it differs on every lowered op.
        if (a.name == "origin_id")
            continue;
        h += hashCombine(std::hash<std::string>()(a.name), hashAttribute(a.value));
    }
    return h;
}

bool sameResultTypes(const Operation &x, const Operation &y)
{
    if (x.numResults() != y.numResults())
        return false;
    for (unsigned i = 0; i < x.numResults(); ++i)
        if (!(x.result(i).type() == y.result(i).type()))
            return false;
    return true;
}

size_t hashResultTypes(const Operation &op)
{
    size_t h = op.numResults();
    for (unsigned i = 0; i < op.numResults(); ++i)
        h = hashCombine(h, std::hash<const void *>()(op.result(i).type().impl()));
    return h;
}

class Matcher
{
public:
    Matcher(const std::vector<const Operation *> &before, const std::vector<const Operation *> &after,
        std::vector<int32_t> &afterOf, std::vector<int32_t> &beforeOf)
        : m_before(before)
        , m_after(after)
        , m_afterOf(afterOf)
        , m_beforeOf(beforeOf)
    {
        m_afterOf.assign(before.size(), -1);
        m_beforeOf.assign(after.size(), -1);
        m_beforeIndex.reserve(before.size());
        m_afterIndex.reserve(after.size());
        for (size_t i = 0; i < before.size(); ++i)
            m_beforeIndex.emplace(before[i], int32_t(i));
        for (size_t i = 0; i < after.size(); ++i)
            m_afterIndex.emplace(after[i], int32_t(i));
    }

    size_t matchKeys(const OpKeys *keysBefore, const OpKeys *keysAfter)
    {
        size_t count = 0;
        std::unordered_map<uint64_t, int32_t> byKey;
        if (keysBefore && keysBefore->size() == m_before.size()) {
            byKey.reserve(m_before.size());
            for (size_t i = 0; i < m_before.size(); ++i) {
                const uint64_t k = (*keysBefore)[i];
                if (k == 0)
                    continue;
                auto [it, fresh] = byKey.emplace(k, int32_t(i));
                if (!fresh)
                    it->second = -1; // an ambiguous key identifies nothing
            }
        }
        if (byKey.empty())
            return 0;
        const bool afterKeyed = keysAfter && keysAfter->size() == m_after.size();
        for (size_t j = 0; j < m_after.size(); ++j) {
            std::optional<uint64_t> key;
            if (afterKeyed && (*keysAfter)[j] != 0)
                key = (*keysAfter)[j];
            auto it = key ? byKey.find(*key) : byKey.end();
            if (it == byKey.end() || it->second < 0 || m_afterOf[size_t(it->second)] >= 0) {
                // Paddle's pd_op_to_kernel_pass records the id of the op it lowered.
                const Attribute *origin = m_after[j]->attribute("origin_id");
                it = origin && origin->isInteger() ? byKey.find(uint64_t(origin->asInt())) : byKey.end();
            }
            if (it != byKey.end() && it->second >= 0 && m_afterOf[size_t(it->second)] < 0) {
                pair(it->second, int32_t(j));
                ++count;
            }
        }
        return count;
    }

    void matchStructure()
    {
        buildBeforeTables();
        for (int round = 0; round < 4; ++round) {
            for (size_t j = 0; j < m_after.size(); ++j)
                if (m_beforeOf[j] < 0)
                    matchExactOrRelaxed(int32_t(j));
            bool progress = false;
            for (size_t j = 0; j < m_after.size(); ++j)
                if (m_beforeOf[j] < 0 && matchFallback(int32_t(j)))
                    progress = true;
            if (!progress)
                break;
        }
    }

private:
    struct Bucket
    {
        std::vector<int32_t> items; ///< ops of `before`, increasing
        size_t firstFree = 0;
    };

    void pair(int32_t b, int32_t a)
    {
        m_afterOf[size_t(b)] = a;
        m_beforeOf[size_t(a)] = b;
    }

    /// The parent op of `op` as an index of `before` (-1 at top level, -2 when unknown).
    int64_t parentKey(const Operation &op, bool isAfter) const
    {
        const Operation *parent = op.parentOp();
        if (!parent)
            return -1;
        if (!isAfter) {
            auto it = m_beforeIndex.find(parent);
            return it == m_beforeIndex.end() ? -2 : it->second;
        }
        auto it = m_afterIndex.find(parent);
        return it == m_afterIndex.end() || m_beforeOf[size_t(it->second)] < 0
            ? -2
            : m_beforeOf[size_t(it->second)];
    }

    /// The operand's source in `before`'s numbering; nullopt for an op of `after` whose
    /// producer has no counterpart (yet).
    std::optional<Source> sourceOf(Value v, bool isAfter) const
    {
        if (!v)
            return Source {};
        if (const Operation *def = v.definingOp()) {
            const auto &index = isAfter ? m_afterIndex : m_beforeIndex;
            auto it = index.find(def);
            if (it == index.end())
                return std::nullopt;
            int32_t b = it->second;
            if (isAfter)
                b = m_beforeOf[size_t(b)];
            if (b < 0)
                return std::nullopt;
            return Source { 1, b, int64_t(v.index()) };
        }
        if (v.isKeywordArgument())
            return Source { 3, int64_t(std::hash<std::string>()(v.keyword())), 0 };
        const Block *block = v.parentBlock();
        const Operation *owner = block ? block->parentOp() : nullptr;
        int64_t ownerKey = -1;
        if (owner) {
            const auto &index = isAfter ? m_afterIndex : m_beforeIndex;
            auto it = index.find(owner);
            if (it == index.end())
                return std::nullopt;
            ownerKey = isAfter ? m_beforeOf[size_t(it->second)] : it->second;
            if (ownerKey < 0)
                return std::nullopt;
        }
        return Source { 2, ownerKey, int64_t(v.index()) };
    }

    /// All operand sources, or false when one is unresolved.
    bool sources(const Operation &op, bool isAfter, std::vector<Source> &out) const
    {
        out.clear();
        for (unsigned i = 0; i < op.numOperands(); ++i) {
            std::optional<Source> s = sourceOf(op.operand(i), isAfter);
            if (!s)
                return false;
            out.push_back(*s);
        }
        return true;
    }

    size_t hashSources(const std::vector<Source> &s, int64_t parent) const
    {
        size_t h = hashCombine(s.size(), size_t(parent));
        for (const Source &x : s)
            h = hashCombine(h, hashSource(x));
        return h;
    }

    size_t exactHash(const Operation &op, const std::vector<Source> &s, int64_t parent) const
    {
        size_t h = hashCombine(std::hash<std::string_view>()(op.name()), hashSources(s, parent));
        h = hashCombine(h, hashAttributes(op));
        return hashCombine(h, hashResultTypes(op));
    }

    size_t relaxedHash(const std::string &canonical, const std::vector<Source> &s, int64_t parent) const
    {
        return hashCombine(std::hash<std::string>()(canonical), hashSources(s, parent));
    }

    size_t fallbackHash(const Operation &op) const
    {
        return hashCombine(std::hash<std::string_view>()(op.name()), hashAttributes(op));
    }

    void buildBeforeTables()
    {
        m_beforeSources.resize(m_before.size());
        m_beforeParent.resize(m_before.size());
        m_beforeCanonical.resize(m_before.size());
        for (size_t i = 0; i < m_before.size(); ++i) {
            const Operation &op = *m_before[i];
            sources(op, false, m_beforeSources[i]);
            m_beforeParent[i] = parentKey(op, false);
            m_beforeCanonical[i] = OpMatcher::canonicalName(op);
            if (m_afterOf[i] >= 0)
                continue;
            m_exact[exactHash(op, m_beforeSources[i], m_beforeParent[i])].items.push_back(int32_t(i));
            m_relaxed[relaxedHash(m_beforeCanonical[i], m_beforeSources[i], m_beforeParent[i])]
                .items.push_back(int32_t(i));
            m_fallback[fallbackHash(op)].items.push_back(int32_t(i));
        }
    }

    template<class Accept> int32_t take(Bucket &bucket, Accept accept)
    {
        while (
            bucket.firstFree < bucket.items.size() && m_afterOf[size_t(bucket.items[bucket.firstFree])] >= 0)
            ++bucket.firstFree;
        for (size_t k = bucket.firstFree; k < bucket.items.size(); ++k) {
            const int32_t b = bucket.items[k];
            if (m_afterOf[size_t(b)] < 0 && accept(b))
                return b;
        }
        return -1;
    }

    void matchExactOrRelaxed(int32_t j)
    {
        const Operation &op = *m_after[size_t(j)];
        if (!sources(op, true, m_scratch))
            return;
        const int64_t parent = parentKey(op, true);
        if (parent == -2)
            return;
        if (auto it = m_exact.find(exactHash(op, m_scratch, parent)); it != m_exact.end()) {
            const int32_t b = take(it->second, [&](int32_t b) {
                const Operation &x = *m_before[size_t(b)];
                return m_beforeSources[size_t(b)] == m_scratch && m_beforeParent[size_t(b)] == parent
                    && OpMatcher::sameContent(x, op);
            });
            if (b >= 0)
                return pair(b, j);
        }
        const std::string canonical = OpMatcher::canonicalName(op);
        if (auto it = m_relaxed.find(relaxedHash(canonical, m_scratch, parent)); it != m_relaxed.end()) {
            const int32_t b = take(it->second, [&](int32_t b) {
                return m_beforeCanonical[size_t(b)] == canonical && m_beforeSources[size_t(b)] == m_scratch
                    && m_beforeParent[size_t(b)] == parent;
            });
            if (b >= 0)
                pair(b, j);
        }
    }

    /// Same name and attributes, operands changed: the candidate near the expected position
    /// with the most agreeing operands.
    bool matchFallback(int32_t j)
    {
        const Operation &op = *m_after[size_t(j)];
        auto it = m_fallback.find(fallbackHash(op));
        if (it == m_fallback.end())
            return false;
        const std::vector<int32_t> &items = it->second.items;
        int32_t expected = 0;
        for (int32_t k = j - 1; k >= 0; --k) {
            if (m_beforeOf[size_t(k)] >= 0) {
                expected = m_beforeOf[size_t(k)] + 1;
                break;
            }
        }
        const auto mid = std::lower_bound(items.begin(), items.end(), expected) - items.begin();
        constexpr long kWindow = 8;
        std::vector<std::optional<Source>> mine;
        for (unsigned i = 0; i < op.numOperands(); ++i)
            mine.push_back(sourceOf(op.operand(i), true));
        int32_t best = -1;
        long bestScore = 0;
        for (long k = std::max(0L, long(mid) - kWindow);
             k < std::min(long(items.size()), long(mid) + kWindow); ++k) {
            const int32_t b = items[size_t(k)];
            if (m_afterOf[size_t(b)] >= 0)
                continue;
            const Operation &x = *m_before[size_t(b)];
            if (x.name() != op.name() || !OpMatcher::sameAttributes(x, op))
                continue;
            long agree = 0;
            const std::vector<Source> &theirs = m_beforeSources[size_t(b)];
            for (size_t i = 0; i < mine.size() && i < theirs.size(); ++i)
                agree += mine[i] && *mine[i] == theirs[i];
            const long score = agree * 1000000L - std::abs(long(b) - long(expected));
            if (best < 0 || score > bestScore) {
                best = b;
                bestScore = score;
            }
        }
        if (best < 0)
            return false;
        pair(best, j);
        return true;
    }

    const std::vector<const Operation *> &m_before;
    const std::vector<const Operation *> &m_after;
    std::vector<int32_t> &m_afterOf;
    std::vector<int32_t> &m_beforeOf;
    std::unordered_map<const Operation *, int32_t> m_beforeIndex;
    std::unordered_map<const Operation *, int32_t> m_afterIndex;
    std::vector<std::vector<Source>> m_beforeSources;
    std::vector<int64_t> m_beforeParent;
    std::vector<std::string> m_beforeCanonical;
    std::unordered_map<size_t, Bucket> m_exact;
    std::unordered_map<size_t, Bucket> m_relaxed;
    std::unordered_map<size_t, Bucket> m_fallback;
    std::vector<Source> m_scratch;
};

} // namespace

size_t OpMatcher::match(const std::vector<const Operation *> &before,
    const std::vector<const Operation *> &after, const OpKeys *keysBefore, const OpKeys *keysAfter,
    std::vector<int32_t> &afterOf, std::vector<int32_t> &beforeOf)
{
    Matcher matcher(before, after, afterOf, beforeOf);
    const size_t byKey = matcher.matchKeys(keysBefore, keysAfter);
    matcher.matchStructure();
    return byKey;
}

std::string OpMatcher::canonicalName(const Operation &op)
{
    std::string_view name = op.name();
    std::string fromAttribute;
    if (const Attribute *a = op.attribute("op_name"); a && a->kind() == Attribute::Kind::String) {
        fromAttribute = a->asString();
        name = fromAttribute;
    }
    if (const size_t paren = name.find('('); paren != std::string_view::npos)
        name = name.substr(0, paren);
    if (const size_t dot = name.rfind('.'); dot != std::string_view::npos)
        name = name.substr(dot + 1);
    if (name.size() > 1 && name.back() == '_')
        name.remove_suffix(1);
    return std::string(name);
}

bool OpMatcher::sameAttributes(const Operation &x, const Operation &y)
{
    if (x.attributes().data() == y.attributes().data())
        return true;
    size_t nx = 0;
    for (const NamedAttribute &a : x.attributes()) {
        if (a.name == "origin_id")
            continue;
        ++nx;
        const Attribute *other = y.attribute(a.name);
        if (!other || !(*other == a.value))
            return false;
    }
    size_t ny = 0;
    for (const NamedAttribute &a : y.attributes())
        ny += a.name != "origin_id";
    return nx == ny;
}

bool OpMatcher::sameContent(const Operation &x, const Operation &y)
{
    return x.name() == y.name() && sameResultTypes(x, y) && sameAttributes(x, y);
}

} // namespace ps
