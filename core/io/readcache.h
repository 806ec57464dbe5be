#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ps {

/// The per-load table of the values a reader has read, by a key that views the document: open
/// addressing with linear probing over small slots that keep their hash (the values sit in a
/// vector of their own), so a lookup costs a hash, usually one slot and one key comparison
/// (std::unordered_map's node per entry cost a tenth of a text load). Grows at half full.
/// Entries are never removed.
template<class Key, class Value, class Hash> class ReadCache
{
public:
    /// `capacity`: a power of two.
    explicit ReadCache(size_t capacity = 1024) { m_slots.resize(capacity); }

    /// nullptr when absent.
    const Value *find(const Key &key, size_t hash) const
    {
        const size_t mask = m_slots.size() - 1;
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            const Slot &s = m_slots[i];
            if (!s.used)
                return nullptr;
            if (s.hash == hash && s.key == key)
                return &m_values[s.index];
        }
    }
    /// `key` must be absent.
    void add(const Key &key, size_t hash, const Value &value)
    {
        if (2 * (m_values.size() + 1) > m_slots.size())
            grow();
        place(Slot { hash, key, uint32_t(m_values.size()), true });
        m_values.push_back(value);
    }
    static size_t hashOf(const Key &key) { return Hash()(key); }

private:
    struct Slot
    {
        size_t hash = 0;
        Key key {};
        uint32_t index = 0;
        bool used = false;
    };
    void place(Slot &&slot)
    {
        const size_t mask = m_slots.size() - 1;
        size_t i = slot.hash & mask;
        while (m_slots[i].used)
            i = (i + 1) & mask;
        m_slots[i] = std::move(slot);
    }
    void grow()
    {
        std::vector<Slot> old(2 * m_slots.size());
        old.swap(m_slots);
        for (Slot &s : old) {
            if (s.used)
                place(std::move(s));
        }
    }

    std::vector<Slot> m_slots; ///< a power of two in size
    std::vector<Value> m_values;
};

} // namespace ps
