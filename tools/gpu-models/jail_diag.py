#!/usr/bin/env python3
"""Which part of the job jail (Landlock) keeps CUDA from starting, on a GPU machine.

Each variant confines a child process with a Landlock ruleset like the runner's
(`backend/runner/src/jail.rs`: writes handled, allowed beneath a few directories and the
device files; signals and abstract UNIX sockets scoped) with one thing changed, and the child
calls the driver's `cuInit(0)` and `cuDeviceGetCount` through ctypes (no torch: a variant
costs a fraction of a second). Prints one line per variant: its name and the driver's answer.
Usage: python3 jail_diag.py [--first-working]  (prints `WRITABLE <dir>` for the first single
extra directory that makes a confined child start CUDA, when one does).
"""
import ctypes
import os
import sys

SYS_CREATE, SYS_ADD, SYS_RESTRICT = 444, 445, 446
PR_SET_NO_NEW_PRIVS = 38
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1, 2, 4, 8
WRITE_SET = 0
for bit in range(4, 16):  # remove dir .. ioctl_dev (ABI 6's write rights)
    WRITE_SET |= 1 << bit
WRITE_SET |= WRITE_FILE
IOCTL_DEV = 1 << 15
TRUNCATE = 1 << 14
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
SCOPES = 3  # abstract unix sockets | signals

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


class RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("fd", ctypes.c_int32)]


def abi():
    return libc.syscall(SYS_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))


def confine(handled, scoped, allowed_paths):
    attr = RulesetAttr(handled, 0, scoped)
    fd = libc.syscall(SYS_CREATE, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), ctypes.c_uint32(0))
    if fd < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    for path in allowed_paths:
        try:
            pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue
        rights = handled if os.path.isdir(path) else handled & FILE_RIGHTS
        rule = PathBeneath(rights, pfd)
        if libc.syscall(SYS_ADD, ctypes.c_int(fd), ctypes.c_int(1), ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}")
        os.close(pfd)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl")
    if libc.syscall(SYS_RESTRICT, ctypes.c_int(fd), ctypes.c_uint32(0)) != 0:
        raise OSError(ctypes.get_errno(), "landlock_restrict_self")


def cuda_answer():
    cuda = ctypes.CDLL("libcuda.so.1")
    rc = cuda.cuInit(0)
    if rc != 0:
        return f"cuInit={rc}"
    n = ctypes.c_int(0)
    rc = cuda.cuDeviceGetCount(ctypes.byref(n))
    return f"ok devices={n.value}" if rc == 0 else f"cuDeviceGetCount={rc}"


def devices():
    out = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/shm"]
    out += [os.path.join("/dev", d) for d in sorted(os.listdir("/dev")) if d.startswith("nvidia")]
    return out


def trial(handled, scoped, paths):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            if handled or scoped:
                confine(handled, scoped, paths)
            msg = cuda_answer()
        except Exception as e:  # noqa: BLE001 - reported, not raised
            msg = f"error {e}"
        os.write(w, msg.encode())
        os._exit(0)
    os.close(w)
    msg = os.read(r, 4096).decode()
    os.waitpid(pid, 0)
    return msg


def main():
    print("landlock abi", abi(), "uname", os.uname().release)
    print("/dev:", " ".join(sorted(d for d in os.listdir("/dev") if "nvidia" in d or d in ("dri", "infiniband"))))
    with open("/proc/net/unix") as f:
        abstract = sorted({l.split()[-1] for l in f if l.split()[-1].startswith("@")})
    print("abstract unix sockets:", abstract[:20])
    tmp = "/tmp"
    base = [tmp] + devices()
    variants = [
        ("unconfined", 0, 0, []),
        ("as the runner (writes + ioctl, scoped)", WRITE_SET, SCOPES, base),
        ("no scopes", WRITE_SET, 0, base),
        ("scopes only", 0, SCOPES, []),
        ("ioctl not handled", WRITE_SET & ~IOCTL_DEV, SCOPES, base),
        ("+ all of /dev", WRITE_SET, SCOPES, base + ["/dev"]),
        ("+ / (everything allowed)", WRITE_SET, SCOPES, base + ["/"]),
    ]
    results = {}
    for name, handled, scoped, paths in variants:
        results[name] = trial(handled, scoped, paths)
        print(f"{name:45} {results[name]}", flush=True)
    if results["+ / (everything allowed)"].startswith("ok") and not results[
        "as the runner (writes + ioctl, scoped)"
    ].startswith("ok"):
        for top in sorted(os.listdir("/")):
            d = os.path.join("/", top)
            if not os.path.isdir(d) or os.path.islink(d) or d in ("/tmp", "/dev"):
                continue
            got = trial(WRITE_SET, SCOPES, base + [d])
            print(f"{'+ ' + d:45} {got}", flush=True)
            if got.startswith("ok"):
                if "--first-working" in sys.argv:
                    print(f"WRITABLE {d}")
                # Which entry beneath it (the child's own /proc/self included).
                for e in sorted(os.listdir(d)):
                    if e.isdigit():
                        continue
                    sub = os.path.join(d, e)
                    got = trial(WRITE_SET, SCOPES, base + [sub])
                    print(f"{'  + ' + sub:45} {got}", flush=True)
                for sub in ["/proc/self/task", "/proc/self/fd", "/proc/self/attr", "/proc/thread-self"]:
                    print(f"{'  + ' + sub:45} {trial(WRITE_SET, SCOPES, base + [sub])}", flush=True)
                break
        # Inside /dev: each entry alone.
        for e in sorted(os.listdir("/dev")):
            p = os.path.join("/dev", e)
            if p in base:
                continue
            got = trial(WRITE_SET, SCOPES, base + [p])
            if got.startswith("ok"):
                print(f"{'+ ' + p:45} {got}", flush=True)


if __name__ == "__main__":
    main()
