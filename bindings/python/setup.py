"""Builds the two extensions of the dtrace package from the repository's
C sources (libusdt, libdtrace, kernel-shim): pip install bindings/python.

Needs libelf-dev and libbpf-dev (Debian names), as the CMake build does."""
import glob
import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def sources(folder, pattern):
    """The repository's C files, named relative to it (copied at build time:
    setuptools takes no source outside the package's folder)."""
    return sorted(os.path.join("..", "..", os.path.relpath(f, ROOT))
                  for f in glob.glob(os.path.join(ROOT, folder, pattern)))


class BuildExt(build_ext):
    def build_extension(self, ext):
        here = os.path.dirname(os.path.abspath(__file__))
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
    libraries=["bpf", "elf", "m", "pthread"],
)

setup(ext_modules=[usdt, consumer], cmdclass={"build_ext": BuildExt})
