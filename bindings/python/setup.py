"""Builds the two extensions of the dtrace package from the repository's
C sources (libusdt, libdtrace, kernel-shim): pip install bindings/python.

Needs libelf-dev and libbpf-dev (Debian names) and clang, as the CMake
build does: the string subroutines' bodies (libdtrace/bpf/) are C compiled
to BPF at build time and turned into C by bpf2c."""
import glob
import os
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def sources(folder, pattern):
    """The repository's C files, named relative to it (copied at build time:
    setuptools takes no source outside the package's folder)."""
    return sorted(os.path.join("..", "..", os.path.relpath(f, ROOT))
                  for f in glob.glob(os.path.join(ROOT, folder, pattern)))


def bpf_code(build_temp):
    """libdtrace's generated dt_bpf_code.c and .h, as libdtrace/CMakeLists.txt
    makes them: the folder holding both."""
    out = os.path.abspath(os.path.join(build_temp, "bpf_code"))
    os.makedirs(out, exist_ok=True)
    bpf = os.path.join(ROOT, "libdtrace", "bpf")
    clang = next((c for c in ("clang", "clang-14", "clang-15", "clang-16") if shutil.which(c)),
                 None)
    if clang is None:
        raise RuntimeError("clang is needed to compile libdtrace/bpf/ to BPF")
    objs = []
    for src in ("dt_strings", "dt_ustack"):  # DTRACE_BPF_SOURCES
        subprocess.check_call([clang, "-target", "bpf", "-O2", "-mcpu=v3", "-fwrapv",
                               "-ffunction-sections", "-Wall", "-Wextra", "-Werror", "-c",
                               os.path.join(bpf, src + ".c"), "-o", src + ".bpf.o"], cwd=out)
        objs.append(src + ".bpf.o")
    subprocess.check_call([os.environ.get("CC", "cc"), "-O2", os.path.join(bpf, "bpf2c.c"),
                           "-o", "bpf2c", "-lelf"], cwd=out)
    subprocess.check_call([os.path.join(out, "bpf2c"), "dt_bpf_code.c", "dt_bpf_code.h"] + objs,
                          cwd=out)
    return out


def syscall_table(build_temp):
    """kernel-shim's ks_syscalls.c, made from syscall_64.tbl as
    cmake/syscalls.cmake makes it: its path."""
    out = os.path.abspath(os.path.join(build_temp, "syscalls"))
    os.makedirs(out, exist_ok=True)
    rows = []
    with open(os.path.join(ROOT, "kernel-shim", "syscall_64.tbl")) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            if len(w) < 3 or not w[0].isdigit() or w[1] not in ("common", "64"):
                raise RuntimeError("syscall_64.tbl: cannot read the line %r" % line)
            rows.append('\t{ %s, "%s" },\n' % (w[0], w[2]))
    path = os.path.join(out, "ks_syscalls.c")
    with open(path, "w") as f:
        f.write('#include "ks.h"\n\nconst ks_syscall_t ks_syscalls[] = {\n%s};\n'
                "const size_t ks_nsyscalls = sizeof(ks_syscalls) / sizeof(ks_syscalls[0]);\n"
                % "".join(rows))
    return path


class BuildExt(build_ext):
    def build_extension(self, ext):
        here = os.path.dirname(os.path.abspath(__file__))
        if ext.name == "dtrace._consumer":
            gen = bpf_code(self.build_temp)
            ext.sources = list(ext.sources) + [os.path.join(gen, "dt_bpf_code.c"),
                                               syscall_table(self.build_temp)]
            ext.include_dirs = list(ext.include_dirs) + [gen]
        srcs = []
        for s in ext.sources:
            if not s.startswith(".."):
                srcs.append(s)
                continue
            dst = os.path.join(self.build_temp, "repo", os.path.relpath(os.path.join(here, s), ROOT))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(here, s), dst)
            srcs.append(dst)
        ext.sources = srcs
        super().build_extension(ext)


def include(*folders):
    return [os.path.join(ROOT, f) for f in folders]


usdt = Extension(
    "dtrace._usdt",
    sources=["usdtmodule.c", "pyrt.c"] + sources("libusdt", "us_*.c"),
    include_dirs=include("libusdt/include", "libusdt"),
    define_macros=[("USDT_BUILDING_LIBRARY", None)],
    libraries=["elf", "pthread"],
)

consumer = Extension(
    "dtrace._consumer",
    sources=["consumermodule.c"] + sources("libdtrace", "dt_*.c") + sources("kernel-shim", "ks_*.c"),
    include_dirs=include("libdtrace/include", "libdtrace", "kernel-shim/include", "kernel-shim"),
    define_macros=[("DTRACE_BUILDING_LIBRARY", None), ("KS_BUILDING_LIBRARY", None)],
    libraries=["bpf", "dw", "elf", "m", "pthread"],
)

setup(ext_modules=[usdt, consumer], cmdclass={"build_ext": BuildExt})
