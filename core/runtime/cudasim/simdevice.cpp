#include "core/runtime/cudasim/simdevice.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace ps::cudasim {
namespace {

using namespace api;

/// The thread is running queued device work.
thread_local __attribute__((tls_model("initial-exec"))) bool t_deviceMode = false;
thread_local __attribute__((tls_model("initial-exec"))) cudaError_t t_lastError = cudaSuccess;

constexpr size_t kGrantWindow = size_t(1) << 20;
constexpr size_t kMaxGrants = size_t(1) << 16;
constexpr unsigned char kFreshByte = 0xFF;

SimDevice *g_device = nullptr;
struct sigaction g_previousSegv;
struct sigaction g_previousBus;

double nowMs()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

size_t parseBytes(const char *text, size_t fallback)
{
    if (!text || !*text)
        return fallback;
    char *end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || v <= 0)
        return fallback;
    double scale = 1;
    switch (*end) {
    case 'k':
    case 'K':
        scale = 1024.0;
        break;
    case 'm':
    case 'M':
        scale = 1024.0 * 1024;
        break;
    case 'g':
    case 'G':
        scale = 1024.0 * 1024 * 1024;
        break;
    default:
        break;
    }
    return size_t(v * scale);
}

void writeStderr(const char *text)
{
    const ssize_t ignored = ::write(2, text, std::strlen(text));
    (void)ignored;
}

void chain(const struct sigaction &previous, int sig, siginfo_t *info, void *context)
{
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) {
            previous.sa_sigaction(sig, info, context);
            return;
        }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    // Default action: reinstall it and return, so the faulting access repeats and kills us.
    signal(sig, SIG_DFL);
}

void onFault(int sig, siginfo_t *info, void *context)
{
    if (g_device && g_device->handleFault(info->si_addr))
        return;
    chain(sig == SIGSEGV ? g_previousSegv : g_previousBus, sig, info, context);
}

} // namespace

SimDevice &SimDevice::instance()
{
    static SimDevice *device = new SimDevice(); // never destroyed: tensors may outlive statics
    return *device;
}

SimDevice::SimDevice()
{
    m_page = size_t(sysconf(_SC_PAGESIZE));
    m_limit = parseBytes(std::getenv("PIRSCOPE_CUDASIM_MEMORY"), size_t(6) << 30);
    m_limit = std::max(m_limit, size_t(64) << 20);
    if (const char *sms = std::getenv("PIRSCOPE_CUDASIM_SMS"))
        m_sms = std::clamp(std::atoi(sms), 1, 1024);
    // Room for every allocation's guard page and rounding besides the limit itself.
    m_arenaBytes = m_limit + m_limit / 2 + (size_t(1) << 30);
    void *p = mmap(nullptr, m_arenaBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        std::fprintf(stderr, "cuda-sim: cannot reserve %zu bytes of address space for device memory\n", m_arenaBytes);
        std::abort();
    }
    m_arena = static_cast<char *>(p);
    m_free[reinterpret_cast<uintptr_t>(m_arena)] = m_arenaBytes;
    m_grants.resize(kMaxGrants);
    g_device = this;
    struct sigaction action {};
    action.sa_sigaction = &onFault;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &g_previousSegv);
    sigaction(SIGBUS, &action, &g_previousBus);
}

// ---- errors ----

cudaError_t SimDevice::stickyError() const
{
    std::lock_guard lock(m_mutex);
    return m_sticky;
}

std::string SimDevice::stickyMessage() const
{
    std::lock_guard lock(m_mutex);
    return m_stickyMessage;
}

void SimDevice::fail(cudaError_t error, const std::string &message)
{
    std::lock_guard lock(m_mutex);
    if (m_sticky != cudaSuccess)
        return;
    m_sticky = error;
    m_stickyMessage = message;
    std::fprintf(stderr, "cuda-sim: %s\n", message.c_str());
}

cudaError_t SimDevice::failIfSticky()
{
    if (m_sticky != cudaSuccess)
        t_lastError = m_sticky;
    return m_sticky;
}

cudaError_t SimDevice::takeLastError()
{
    std::lock_guard lock(m_mutex);
    if (m_sticky != cudaSuccess)
        return m_sticky;
    const cudaError_t e = t_lastError;
    t_lastError = cudaSuccess;
    return e;
}

cudaError_t SimDevice::peekLastError() const
{
    std::lock_guard lock(m_mutex);
    return m_sticky != cudaSuccess ? m_sticky : t_lastError;
}

void SimDevice::setLastError(cudaError_t error)
{
    if (error != cudaSuccess)
        t_lastError = error;
}

// ---- memory ----

bool SimDevice::inArena(const void *ptr) const
{
    const auto a = reinterpret_cast<uintptr_t>(ptr), base = reinterpret_cast<uintptr_t>(m_arena);
    return a >= base && a < base + m_arenaBytes;
}

const SimDevice::Allocation *SimDevice::findAllocation(uintptr_t address) const
{
    auto it = m_allocations.upper_bound(address);
    if (it == m_allocations.begin())
        return nullptr;
    --it;
    const Allocation &a = it->second;
    return address < it->first + std::max<size_t>(a.bytes, 1) ? &a : nullptr;
}

bool SimDevice::isDevicePointer(const void *ptr, size_t bytes) const
{
    std::lock_guard lock(m_mutex);
    const auto a = reinterpret_cast<uintptr_t>(ptr);
    auto it = m_allocations.upper_bound(a);
    if (it == m_allocations.begin())
        return false;
    --it;
    return a >= it->first && a + bytes <= it->first + it->second.bytes;
}

bool SimDevice::isPinned(const void *ptr, size_t bytes) const
{
    std::lock_guard lock(m_mutex);
    const auto a = reinterpret_cast<uintptr_t>(ptr);
    auto it = m_pinned.upper_bound(a);
    if (it == m_pinned.begin())
        return false;
    --it;
    return a >= it->first && a + bytes <= it->first + it->second;
}

std::string SimDevice::describeAddress(uintptr_t address) const
{
    char buf[256];
    auto after = m_allocations.upper_bound(address);
    if (after != m_allocations.begin()) {
        auto before = std::prev(after);
        const uintptr_t end = before->first + before->second.bytes;
        if (address >= before->first && address < end) {
            std::snprintf(buf, sizeof buf, "byte %zu of a live allocation of %zu bytes at %p",
                size_t(address - before->first), before->second.bytes, reinterpret_cast<void *>(before->first));
            return buf;
        }
        if (address >= end && address < before->second.span + before->second.spanBytes + m_page) {
            std::snprintf(buf, sizeof buf, "%zu bytes past the end of an allocation of %zu bytes at %p",
                size_t(address - end), before->second.bytes, reinterpret_cast<void *>(before->first));
            return buf;
        }
    }
    std::snprintf(buf, sizeof buf, "device memory that is not allocated (freed or never allocated)");
    return buf;
}

cudaError_t SimDevice::allocate(void **ptr, size_t bytes)
{
    std::lock_guard lock(m_mutex);
    if (!ptr)
        return t_lastError = cudaErrorInvalidValue;
    *ptr = nullptr;
    if (failIfSticky() != cudaSuccess)
        return m_sticky;
    if (bytes == 0)
        return cudaSuccess;
    const size_t spanBytes = (bytes + m_page - 1) / m_page * m_page;
    if (m_used + spanBytes > m_limit)
        return t_lastError = cudaErrorMemoryAllocation;
    const size_t need = spanBytes + m_page; // the guard page stays PROT_NONE for ever
    auto it = std::find_if(m_free.begin(), m_free.end(), [&](const auto &f) { return f.second >= need; });
    if (it == m_free.end())
        return t_lastError = cudaErrorMemoryAllocation;
    const uintptr_t span = it->first;
    const size_t rest = it->second - need;
    m_free.erase(it);
    if (rest > 0)
        m_free[span + need] = rest;
    const uintptr_t user = span + spanBytes - (bytes + 255) / 256 * 256;
    m_allocations[user] = Allocation { span, spanBytes, bytes };
    m_used += spanBytes;
    mprotect(reinterpret_cast<void *>(span), spanBytes, PROT_READ | PROT_WRITE);
    std::memset(reinterpret_cast<void *>(span), kFreshByte, spanBytes);
    mprotect(reinterpret_cast<void *>(span), spanBytes, PROT_NONE);
    *ptr = reinterpret_cast<void *>(user);
    return cudaSuccess;
}

cudaError_t SimDevice::release(void *ptr)
{
    std::lock_guard lock(m_mutex);
    if (!ptr)
        return cudaSuccess;
    runQueue(); // cudaFree waits for the device
    auto it = m_allocations.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == m_allocations.end())
        return t_lastError = cudaErrorInvalidDevicePointer;
    const Allocation a = it->second;
    m_allocations.erase(it);
    m_used -= a.spanBytes;
    madvise(reinterpret_cast<void *>(a.span), a.spanBytes, MADV_DONTNEED);
    uintptr_t begin = a.span;
    size_t length = a.spanBytes + m_page;
    auto next = m_free.lower_bound(begin);
    if (next != m_free.end() && next->first == begin + length) {
        length += next->second;
        next = m_free.erase(next);
    }
    if (next != m_free.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == begin) {
            begin = prev->first;
            length += prev->second;
            m_free.erase(prev);
        }
    }
    m_free[begin] = length;
    return failIfSticky();
}

void SimDevice::memoryInfo(size_t *freeBytes, size_t *totalBytes)
{
    std::lock_guard lock(m_mutex);
    if (freeBytes)
        *freeBytes = m_limit - m_used;
    if (totalBytes)
        *totalBytes = m_limit;
}

cudaError_t SimDevice::allocateHost(void **ptr, size_t bytes)
{
    std::lock_guard lock(m_mutex);
    if (!ptr)
        return t_lastError = cudaErrorInvalidValue;
    const size_t rounded = std::max<size_t>((bytes + m_page - 1) / m_page * m_page, m_page);
    void *p = std::aligned_alloc(m_page, rounded);
    if (!p)
        return t_lastError = cudaErrorMemoryAllocation;
    m_pinned[reinterpret_cast<uintptr_t>(p)] = rounded;
    *ptr = p;
    return cudaSuccess;
}

cudaError_t SimDevice::releaseHost(void *ptr)
{
    std::lock_guard lock(m_mutex);
    if (!ptr)
        return cudaSuccess;
    runQueue();
    auto it = m_pinned.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == m_pinned.end())
        return t_lastError = cudaErrorInvalidValue;
    m_pinned.erase(it);
    std::free(ptr);
    return cudaSuccess;
}

// ---- device mode and faults ----

void SimDevice::openRange(uintptr_t begin, size_t bytes)
{
    if (bytes == 0)
        return;
    mprotect(reinterpret_cast<void *>(begin), bytes, PROT_READ | PROT_WRITE);
    if (m_grantCount < m_grants.size())
        m_grants[m_grantCount++] = Range { begin, bytes };
    else
        m_grantOverflow = true;
}

void SimDevice::grant(const void *ptr, size_t bytes)
{
    std::lock_guard lock(m_mutex);
    const auto begin = reinterpret_cast<uintptr_t>(ptr);
    for (uintptr_t at = begin; at < begin + bytes;) {
        const Allocation *a = findAllocation(at);
        if (!a)
            return; // not device memory (or a bad pointer: the access itself will report it)
        const uintptr_t end = std::min<uintptr_t>(a->span + a->spanBytes, begin + bytes);
        const uintptr_t from = at / m_page * m_page;
        openRange(from, (end + m_page - 1) / m_page * m_page - from);
        at = a->span + a->spanBytes;
    }
}

bool SimDevice::handleFault(void *address)
{
    if (!inArena(address))
        return false;
    const auto a = reinterpret_cast<uintptr_t>(address);
    if (!t_deviceMode) {
        char buf[512];
        std::snprintf(buf, sizeof buf,
            "cuda-sim: host code touched device memory at %p (%s); the host reaches device memory only "
            "through cudaMemcpy (Backend::toHost)\n",
            address, describeAddress(a).c_str());
        writeStderr(buf);
        return false;
    }
    const uintptr_t page = a / m_page * m_page;
    if (const Allocation *alloc = findAllocation(a)) {
        const uintptr_t end = alloc->span + alloc->spanBytes;
        const uintptr_t from = std::max(alloc->span, page > kGrantWindow / 2 ? page - kGrantWindow / 2 : 0);
        const uintptr_t to = std::min(end, page + kGrantWindow / 2);
        openRange(from, std::max<uintptr_t>(to - from, m_page));
        return true;
    }
    // Outside every allocation: CUDA's illegal address. Open the page so the kernel can run on
    // (its results are void: the error is sticky).
    if (m_sticky == cudaSuccess) {
        m_sticky = cudaErrorIllegalAddress;
        char buf[512];
        std::snprintf(buf, sizeof buf, "an illegal memory access at %p: %s", address, describeAddress(a).c_str());
        m_stickyMessage = buf;
        writeStderr("cuda-sim: ");
        writeStderr(buf);
        writeStderr("\n");
    }
    openRange(page, m_page);
    return true;
}

void SimDevice::closeGrants()
{
    if (m_grantOverflow) {
        mprotect(m_arena, m_arenaBytes, PROT_NONE);
    } else {
        std::sort(m_grants.begin(), m_grants.begin() + std::ptrdiff_t(m_grantCount),
            [](const Range &x, const Range &y) { return x.begin < y.begin; });
        size_t i = 0;
        while (i < m_grantCount) {
            uintptr_t begin = m_grants[i].begin, end = begin + m_grants[i].bytes;
            for (++i; i < m_grantCount && m_grants[i].begin <= end; ++i)
                end = std::max(end, m_grants[i].begin + m_grants[i].bytes);
            mprotect(reinterpret_cast<void *>(begin), end - begin, PROT_NONE);
        }
    }
    m_grantCount = 0;
    m_grantOverflow = false;
}

// ---- the queue ----

void SimDevice::runQueue()
{
    if (m_queue.empty())
        return;
    t_deviceMode = true;
    while (!m_queue.empty()) {
        std::function<void()> work = std::move(m_queue.front());
        m_queue.pop_front();
        if (m_sticky == cudaSuccess)
            work();
    }
    t_deviceMode = false;
    closeGrants();
}

cudaError_t SimDevice::enqueue(cudaStream_t stream, std::function<void()> work)
{
    std::lock_guard lock(m_mutex);
    if (failIfSticky() != cudaSuccess)
        return m_sticky;
    if (stream && !m_streams.count(stream))
        return t_lastError = cudaErrorInvalidResourceHandle;
    m_queue.push_back(std::move(work));
    return cudaSuccess;
}

cudaError_t SimDevice::synchronize()
{
    std::lock_guard lock(m_mutex);
    runQueue();
    return failIfSticky();
}

cudaError_t SimDevice::copy(
    void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream, bool blocking)
{
    std::lock_guard lock(m_mutex);
    if (failIfSticky() != cudaSuccess)
        return m_sticky;
    if (bytes == 0)
        return cudaSuccess;
    if (!dst || !src)
        return t_lastError = cudaErrorInvalidValue;
    const bool dstDevice = inArena(dst), srcDevice = inArena(src);
    // cudaMemcpyDefault infers the direction; an explicit kind must match the pointers.
    const bool kindOk = kind == cudaMemcpyDefault || (kind == cudaMemcpyHostToDevice && dstDevice && !srcDevice)
        || (kind == cudaMemcpyDeviceToHost && !dstDevice && srcDevice)
        || (kind == cudaMemcpyDeviceToDevice && dstDevice && srcDevice)
        || (kind == cudaMemcpyHostToHost && !dstDevice && !srcDevice);
    if (!kindOk)
        return t_lastError = cudaErrorInvalidMemcpyDirection;
    if ((dstDevice && !isDevicePointer(dst, bytes)) || (srcDevice && !isDevicePointer(src, bytes)))
        return t_lastError = cudaErrorInvalidValue;
    const bool srcPinned = !srcDevice && isPinned(src, bytes);
    const bool dstPinned = !dstDevice && isPinned(dst, bytes);
    if (!srcDevice && !srcPinned) {
        // Pageable source: CUDA stages it before returning, so it is read now.
        auto staged = std::make_shared<std::vector<char>>(static_cast<const char *>(src),
            static_cast<const char *>(src) + bytes);
        m_queue.push_back([this, dst, staged, dstDevice] {
            if (dstDevice)
                grant(dst, staged->size());
            std::memcpy(dst, staged->data(), staged->size());
        });
    } else {
        m_queue.push_back([this, dst, src, bytes, dstDevice, srcDevice] {
            if (dstDevice)
                grant(dst, bytes);
            if (srcDevice)
                grant(src, bytes);
            std::memmove(dst, src, bytes);
        });
    }
    // A copy into pageable memory returns when it is done, as does a blocking copy.
    if (blocking || (!dstDevice && !dstPinned))
        runQueue();
    (void)stream;
    return failIfSticky();
}

cudaError_t SimDevice::set(void *ptr, int value, size_t bytes, cudaStream_t stream, bool blocking)
{
    std::lock_guard lock(m_mutex);
    if (failIfSticky() != cudaSuccess)
        return m_sticky;
    if (bytes == 0)
        return cudaSuccess;
    if (!isDevicePointer(ptr, bytes))
        return t_lastError = cudaErrorInvalidValue;
    m_queue.push_back([this, ptr, value, bytes] {
        grant(ptr, bytes);
        std::memset(ptr, value, bytes);
    });
    if (blocking)
        runQueue();
    (void)stream;
    return failIfSticky();
}

cudaError_t SimDevice::reset()
{
    std::lock_guard lock(m_mutex);
    m_queue.clear();
    for (SimStream *s : m_streams)
        delete s;
    m_streams.clear();
    for (SimEvent *e : m_events)
        delete e;
    m_events.clear();
    for (const auto &[user, a] : m_allocations)
        madvise(reinterpret_cast<void *>(a.span), a.spanBytes, MADV_DONTNEED);
    m_allocations.clear();
    // Pinned host memory belongs to the context too: a reset frees it.
    for (const auto &[begin, bytes] : m_pinned)
        std::free(reinterpret_cast<void *>(begin));
    m_pinned.clear();
    m_free.clear();
    m_free[reinterpret_cast<uintptr_t>(m_arena)] = m_arenaBytes;
    mprotect(m_arena, m_arenaBytes, PROT_NONE);
    m_used = 0;
    m_grantCount = 0;
    m_grantOverflow = false;
    m_sticky = cudaSuccess;
    m_stickyMessage.clear();
    t_lastError = cudaSuccess;
    return cudaSuccess;
}

// ---- streams and events ----

cudaError_t SimDevice::createStream(cudaStream_t *stream)
{
    std::lock_guard lock(m_mutex);
    if (!stream)
        return t_lastError = cudaErrorInvalidValue;
    if (failIfSticky() != cudaSuccess)
        return m_sticky;
    auto *s = new SimStream { m_nextStream++ };
    m_streams.insert(s);
    *stream = s;
    return cudaSuccess;
}

cudaError_t SimDevice::destroyStream(cudaStream_t stream)
{
    std::lock_guard lock(m_mutex);
    if (!m_streams.erase(stream))
        return t_lastError = cudaErrorInvalidResourceHandle;
    runQueue();
    delete stream;
    return cudaSuccess;
}

bool SimDevice::validStream(cudaStream_t stream) const
{
    std::lock_guard lock(m_mutex);
    return !stream || m_streams.count(stream);
}

cudaError_t SimDevice::createEvent(cudaEvent_t *event, unsigned flags)
{
    std::lock_guard lock(m_mutex);
    if (!event)
        return t_lastError = cudaErrorInvalidValue;
    if (failIfSticky() != cudaSuccess)
        return m_sticky;
    auto *e = new SimEvent;
    e->flags = flags;
    m_events.insert(e);
    *event = e;
    return cudaSuccess;
}

cudaError_t SimDevice::destroyEvent(cudaEvent_t event)
{
    std::lock_guard lock(m_mutex);
    if (!m_events.erase(event))
        return t_lastError = cudaErrorInvalidResourceHandle;
    // A queued record of it may still be pending: let it land before the event goes.
    runQueue();
    delete event;
    return cudaSuccess;
}

cudaError_t SimDevice::recordEvent(cudaEvent_t event, cudaStream_t stream)
{
    std::lock_guard lock(m_mutex);
    if (!m_events.count(event))
        return t_lastError = cudaErrorInvalidResourceHandle;
    event->recorded = true;
    event->completed = false;
    return enqueue(stream, [event] {
        event->completed = true;
        event->milliseconds = nowMs();
    });
}

cudaError_t SimDevice::synchronizeEvent(cudaEvent_t event)
{
    std::lock_guard lock(m_mutex);
    if (!m_events.count(event))
        return t_lastError = cudaErrorInvalidResourceHandle;
    runQueue();
    return failIfSticky();
}

cudaError_t SimDevice::queryEvent(cudaEvent_t event)
{
    std::lock_guard lock(m_mutex);
    if (!m_events.count(event))
        return t_lastError = cudaErrorInvalidResourceHandle;
    if (failIfSticky() != cudaSuccess)
        return m_sticky;
    return !event->recorded || event->completed ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t SimDevice::elapsed(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    std::lock_guard lock(m_mutex);
    if (!ms || !m_events.count(start) || !m_events.count(stop))
        return t_lastError = cudaErrorInvalidResourceHandle;
    if ((start->flags | stop->flags) & cudaEventDisableTiming)
        return t_lastError = cudaErrorInvalidResourceHandle;
    if (!start->completed || !stop->completed)
        return t_lastError = cudaErrorNotReady;
    *ms = float(stop->milliseconds - start->milliseconds);
    return cudaSuccess;
}

} // namespace ps::cudasim
