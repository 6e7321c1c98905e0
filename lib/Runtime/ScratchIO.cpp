//===- ScratchIO.cpp - an array's storage: memory or a scratch file -------===//
//
// Reading and writing an array's storage, in memory or in its unnamed scratch
// file (pread/pwrite, retried, counted for the report), in chunks of the
// staging size, by runs and by boxes.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tc_rt {

/// Writes with the fault injection of TC_FAIL_WRITE_AFTER_BYTES (tests).
static ssize_t checkedPwrite(int fd, const void *data, size_t n, off_t off) {
  Context &c = ctx();
  if (c.failWriteAfter >= 0) {
    double total = 0;
    for (const Counters &k : c.counters)
      total += k.bytesWritten;
    if (total + n > c.failWriteAfter) {
      errno = EIO;
      return -1;
    }
  }
  return ::pwrite(fd, data, n, off);
}

template <typename T>
void storageIO(DistArray &a, bool read, T *data, int64_t offset, int64_t count,
               const std::string &what) {
  if (count <= 0)
    return;
  if (Element<T>::kind != a.elem)
    fail("array '" + a.name + "' holds " + elementName(a.elem) + " elements, not " +
         elementName(Element<T>::kind) + " (" + what + ")");
  if (!a.onDisk) {
    T *s = a.mem<T>() + offset;
    if (read)
      std::memcpy(data, s, count * sizeof(T));
    else
      std::memcpy(s, data, count * sizeof(T));
    return;
  }
  fileIO(a.fd, read, data, count * sizeof(T), offset * sizeof(T),
         what + " of array '" + a.name + "'", a.path);
}

void fileIO(int fd, bool read, void *data, size_t bytes, off_t offset, const std::string &what,
            const std::string &path) {
  size_t done = 0;
  char *p = static_cast<char *>(data);
  while (done < bytes) {
    ssize_t n = read ? ::pread(fd, p + done, bytes - done, offset + done)
                     : checkedPwrite(fd, p + done, bytes - done, offset + done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      fail(std::string(read ? "reading " : "writing ") + what + (read ? " from " : " to ") + path +
           ": " + (n == 0 ? "unexpected end of file" : std::strerror(errno)));
    done += n;
  }
  (read ? counters().bytesRead : counters().bytesWritten) += bytes;
}

int64_t chunkElems(int64_t elemBytes, int64_t parts) {
  return std::max<int64_t>(1, ctx().chunkBytes / elemBytes / parts);
}

int64_t rowsPerChunk(const Shape &len, int64_t elemBytes, int64_t parts) {
  int64_t row = 1;
  for (size_t d = 1; d < len.size(); ++d)
    row *= std::max<int64_t>(len[d], 1);
  return std::max<int64_t>(1, chunkElems(elemBytes, parts) / row);
}

void forEachPiece(const Shape &ext, int64_t limit,
                  const std::function<void(const Shape &, const Shape &)> &fn) {
  const int d = static_cast<int>(ext.size());
  if (product(ext) <= limit || d == 0)
    return fn(Shape(d, 0), ext);
  // The outermost dimension k whose inner dimensions fit `limit` together is
  // cut into runs of `step`; the dimensions before it are walked one by one.
  int k = d - 1;
  int64_t inner = 1;
  while (k > 0 && inner * ext[k] <= limit)
    inner *= ext[k--];
  const int64_t step = std::max<int64_t>(1, limit / inner);
  Shape start(d, 0), len = ext;
  for (int i = 0; i < k; ++i)
    len[i] = 1;
  for (;;) {
    for (start[k] = 0; start[k] < ext[k]; start[k] += step) {
      len[k] = std::min(step, ext[k] - start[k]);
      fn(start, len);
    }
    start[k] = 0;
    int i = k - 1;
    while (i >= 0 && ++start[i] == ext[i])
      start[i--] = 0;
    if (i < 0)
      return;
  }
}

template <typename T>
void forEachChunk(DistArray &a, int64_t offset, int64_t count, int64_t chunkElems, bool readOnly,
                  const std::function<void(T *, int64_t)> &fn, const std::string &what) {
  PooledVector<T> chunk;
  for (int64_t o = offset; o < offset + count; o += chunkElems) {
    int64_t n = std::min(chunkElems, offset + count - o);
    if (!a.onDisk) {
      fn(a.mem<T>() + o, n);
      continue;
    }
    chunk.resize(n);
    storageIO(a, true, chunk.data(), o, n, what);
    fn(chunk.data(), n);
    if (!readOnly)
      storageIO(a, false, chunk.data(), o, n, what);
  }
}

template <typename T>
void transferRuns(DistArray &a, bool toBuffer, const Selection &sel, T *buf, const Shape &bufShape,
                  const std::string &what) {
  // Runs contiguous on both sides move as one box.
  Selection m;
  for (const Runs &r : sel)
    m.push_back(merged(r));
  forEachBox(m, [&](const Shape &from, const Shape &to, const Shape &len) {
    transferBox(a, toBuffer, from, len, buf, bufShape, to, what);
  });
}

template <typename T>
void transferBox(DistArray &a, bool toBuffer, const Shape &storeStart, const Shape &len, T *buf,
                 const Shape &bufShape, const Shape &bufStart, const std::string &what) {
  const int d = a.rank();
  for (int i = 0; i < d; ++i)
    if (len[i] <= 0)
      return;
  if (d == 0) // a scalar: its one element
    return storageIO(a, toBuffer, buf, 0, 1, what);
  // Merge trailing dimensions covered whole in both storage and buffer into one
  // contiguous run.
  int k = d - 1;
  int64_t run = len[k];
  while (k > 0 && len[k] == a.storeShape[k] && len[k] == bufShape[k]) {
    --k;
    run *= len[k];
  }
  Shape idx(k, 0);
  for (;;) {
    int64_t so = 0, bo = 0;
    for (int i = 0; i < d; ++i) {
      int64_t x = i < k ? idx[i] : 0;
      so = so * a.storeShape[i] + storeStart[i] + x;
      bo = bo * bufShape[i] + bufStart[i] + x;
    }
    storageIO(a, toBuffer, buf + bo, so, run, what);
    int i = k - 1;
    while (i >= 0 && ++idx[i] == len[i])
      idx[i--] = 0;
    if (i < 0)
      break;
  }
}

// The data paths of both element types (Element.h).
#define TC_RT_INSTANTIATE(T)                                                                       \
  template void storageIO<T>(DistArray &, bool, T *, int64_t, int64_t, const std::string &);       \
  template void forEachChunk<T>(DistArray &, int64_t, int64_t, int64_t, bool,                      \
                                const std::function<void(T *, int64_t)> &, const std::string &);   \
  template void transferRuns<T>(DistArray &, bool, const Selection &, T *, const Shape &,          \
                                const std::string &);                                              \
  template void transferBox<T>(DistArray &, bool, const Shape &, const Shape &, T *,               \
                               const Shape &, const Shape &, const std::string &);
TC_RT_INSTANTIATE(double)
TC_RT_INSTANTIATE(float)
#undef TC_RT_INSTANTIATE

/// Creates `dir` and its missing parents (as `mkdir -p`); false with errno
/// set when a part cannot be made or is not a directory.
static bool makeDirectories(const std::string &dir) {
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at < dir.size() && dir[at] != '/')
      continue;
    std::string part = dir.substr(0, at);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST)
      return false;
    struct stat st;
    if (::stat(part.c_str(), &st) != 0)
      return false;
    if (!S_ISDIR(st.st_mode)) {
      errno = ENOTDIR;
      return false;
    }
  }
  return true;
}

/// A scratch file in `dir` that has no name: however the process ends
/// (a signal, MPI_Abort, a full disk), the system frees it and nothing is
/// left in the directory. O_TMPFILE where the file system has it; else a file
/// at `path`, unlinked as soon as it is open. -1 with errno set on failure.
int openScratch(const std::string &dir, const std::string &path) {
  if (!makeDirectories(dir))
    return -1;
#ifdef O_TMPFILE
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR, 0600);
  if (fd >= 0)
    return fd;
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    return -1;
#endif
  int named = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (named >= 0)
    ::unlink(path.c_str());
  return named;
}

} // namespace tc_rt
