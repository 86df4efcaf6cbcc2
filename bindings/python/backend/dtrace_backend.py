"""The Python package's own PEP 517 build backend: pip install bindings/python.

It needs nothing from an index (pyproject.toml: requires = [], the backend
in backend-path), so pip's build isolation works offline, in a venv without
setuptools or wheel.  It compiles the two extensions, dtrace._usdt (over
libusdt) and dtrace._consumer (over libdtrace and the kernel shim), from the
repository's C sources with the compiler and flags of the interpreter that
runs it (sysconfig: CC, CFLAGS, CCSHARED, LDSHARED; $CC, $CFLAGS and
$LDFLAGS as setuptools reads them), links them with libelf, libbpf and libdw
(Debian: libelf-dev, libbpf-dev, libdw-dev, python3-dev), and writes the
wheel.  libdtrace's BPF subroutine bodies (libdtrace/bpf/) are compiled by
clang to BPF and made C by bpf2c, as libdtrace/CMakeLists.txt does, and
kernel-shim's system call table is made from syscall_64.tbl as
cmake/syscalls.cmake does.

Everything is built in a temporary folder: nothing is written to the source
tree (no build/, no *.egg-info).  From a checkout the C sources are the
repository's (../..); an sdist carries them under repo/.
"""
import base64
import concurrent.futures
import glob
import hashlib
import io
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import tomllib
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bindings/python

# The C sources of each extension: (folder, glob) pairs of the repository,
# plus the binding's own files.  Keep in step with the CMake targets
# (py_usdt: usdt_core and bindings/common's BC_USDT_SOURCES; py_consumer:
# dtrace_core, kshim and BC_RECORDS_SOURCES).
EXTENSIONS = {
    "_usdt": {
        "own": ["usdtmodule.c", "pyrt.c"],
        "repo": [("libusdt", "us_*.c"), ("bindings/common", "bc_usdt.c")],
        "include": ["libusdt/include", "libusdt", "bindings/common"],
        "define": ["USDT_BUILDING_LIBRARY"],
        "libs": ["elf", "m", "pthread"],
    },
    "_consumer": {
        "own": ["consumermodule.c"],
        "repo": [("libdtrace", "dt_*.c"), ("kernel-shim", "ks_*.c"),
                 ("bindings/common", "bc_records.c")],
        "include": ["libdtrace/include", "libdtrace", "kernel-shim/include", "kernel-shim",
                    "bindings/common"],
        "define": ["DTRACE_BUILDING_LIBRARY", "KS_BUILDING_LIBRARY"],
        "libs": ["bpf", "dw", "elf", "m", "pthread"],
        "generated": True,
    },
}
# What an sdist carries of the repository (besides the binding's folder).
REPO_FOLDERS = ("libusdt", "libdtrace", "kernel-shim", "bindings/common")
BPF_SOURCES = ("dt_strings", "dt_ustack")  # libdtrace/CMakeLists.txt's DTRACE_BPF_SOURCES


class BuildError(Exception):
    pass


def repo_root():
    """The folder holding libusdt/, libdtrace/ and kernel-shim/."""
    for root in (os.path.join(HERE, "repo"), os.path.dirname(os.path.dirname(HERE))):
        if all(os.path.isdir(os.path.join(root, d)) for d in REPO_FOLDERS):
            return root
    raise BuildError("the repository's C sources are not found: build from a checkout "
                     "(pip install path/to/repo/bindings/python) or from the project's sdist")


def project():
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise BuildError("command failed (%d): %s\n%s" % (p.returncode, shlex.join(cmd), p.stdout))


def toolchain():
    """Compiler and linker command words, as setuptools builds extensions."""
    cv = sysconfig.get_config_var
    cc = shlex.split(os.environ.get("CC") or cv("CC") or "cc")
    cflags = shlex.split(cv("CFLAGS") or "") + shlex.split(cv("CCSHARED") or "-fPIC")
    cflags += shlex.split(os.environ.get("CFLAGS", ""))
    ldshared = shlex.split(cv("LDSHARED") or "cc -shared")
    if os.environ.get("CC"):  # setuptools: $CC replaces the compiler of LDSHARED too
        ldshared = cc + ldshared[1:]
    ldshared += shlex.split(os.environ.get("LDFLAGS", ""))
    for tool in (cc[0], ldshared[0]):
        if shutil.which(tool) is None:
            raise BuildError("the C compiler %s is not found (Debian: build-essential)" % tool)
    return cc, cflags, ldshared


def bpf_code(root, out):
    """libdtrace's dt_bpf_code.c and .h, made in out."""
    clang = next((c for c in ("clang", "clang-14", "clang-15", "clang-16") if shutil.which(c)),
                 None)
    if clang is None:
        raise BuildError("clang is needed to compile libdtrace/bpf/ to BPF (Debian: clang)")
    bpf = os.path.join(root, "libdtrace", "bpf")
    objs = []
    for src in BPF_SOURCES:
        run([clang, "-target", "bpf", "-O2", "-mcpu=v3", "-fwrapv", "-ffunction-sections",
             "-Wall", "-Wextra", "-Werror", "-c", os.path.join(bpf, src + ".c"), "-o",
             src + ".bpf.o"], cwd=out)
        objs.append(src + ".bpf.o")
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    run(cc + ["-O2", os.path.join(bpf, "bpf2c.c"), "-o", "bpf2c", "-lelf"], cwd=out)
    run([os.path.join(out, "bpf2c"), "dt_bpf_code.c", "dt_bpf_code.h"] + objs, cwd=out)
    return os.path.join(out, "dt_bpf_code.c")


def syscall_table(root, out):
    """kernel-shim's ks_syscalls.c, made in out."""
    rows = []
    with open(os.path.join(root, "kernel-shim", "syscall_64.tbl")) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            if len(w) < 3 or not w[0].isdigit() or w[1] not in ("common", "64"):
                raise BuildError("syscall_64.tbl: cannot read the line %r" % line)
            rows.append('\t{ %s, "%s" },\n' % (w[0], w[2]))
    path = os.path.join(out, "ks_syscalls.c")
    with open(path, "w") as f:
        f.write('#include "ks.h"\n\nconst ks_syscall_t ks_syscalls[] = {\n%s};\n'
                "const size_t ks_nsyscalls = sizeof(ks_syscalls) / sizeof(ks_syscalls[0]);\n"
                % "".join(rows))
    return path


def jobs():
    try:
        return max(1, int(os.environ.get("DTRACE_BUILD_JOBS", "")))
    except ValueError:
        return max(1, min(os.cpu_count() or 1, 8))


def build_extension(name, spec, root, tmp, pool):
    """Compile and link one extension into tmp; its path."""
    cc, cflags, ldshared = toolchain()
    srcs = [os.path.join(HERE, s) for s in spec["own"]]
    for folder, pattern in spec["repo"]:
        srcs += sorted(glob.glob(os.path.join(root, folder, pattern)))
    incs = [os.path.join(root, d) for d in spec["include"]]
    if spec.get("generated"):
        gen = os.path.join(tmp, name + "-gen")
        os.makedirs(gen)
        srcs += [bpf_code(root, gen), syscall_table(root, gen)]
        incs.append(gen)
    incs.append(sysconfig.get_paths()["include"])
    objdir = os.path.join(tmp, name + "-obj")
    os.makedirs(objdir)
    base = cc + cflags + ["-std=gnu11", "-fvisibility=hidden"] + \
        ["-D" + d for d in spec["define"]] + ["-I" + i for i in incs]
    objs, futures = [], []
    for i, src in enumerate(srcs):
        obj = os.path.join(objdir, "%03d-%s.o" % (i, os.path.basename(src)[:-2]))
        objs.append(obj)
        futures.append(pool.submit(run, base + ["-c", src, "-o", obj]))
    for f in futures:
        f.result()
    out = os.path.join(tmp, name + sysconfig.get_config_var("EXT_SUFFIX"))
    run(ldshared + objs + ["-o", out] + ["-l" + lib for lib in spec["libs"]])
    return out


def wheel_tag():
    impl = "cp%d%d" % sys.version_info[:2]
    return "%s-%s-%s" % (impl, impl, sysconfig.get_platform().replace("-", "_").replace(".", "_"))


def dist_name():
    return project()["name"].replace("-", "_")


def metadata_text():
    p = project()
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"], "Version: " + p["version"],
             "Summary: " + p.get("description", ""),
             "Requires-Python: " + p.get("requires-python", ">=3")]
    lines += ["Classifier: " + c for c in p.get("classifiers", [])]
    readme = p.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(HERE, readme)) as f:
            body = f.read()
    return "\n".join(lines) + "\n\n" + body


def write_metadata(folder):
    """The .dist-info folder in folder: its name."""
    info = "%s-%s.dist-info" % (dist_name(), project()["version"])
    os.makedirs(os.path.join(folder, info), exist_ok=True)
    with open(os.path.join(folder, info, "METADATA"), "w") as f:
        f.write(metadata_text())
    return info


# ---------------------------------------------------------------- PEP 517 hooks

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return write_metadata(metadata_directory)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    root = repo_root()
    version = project()["version"]
    info = "%s-%s.dist-info" % (dist_name(), version)
    files = {}  # path in the wheel -> bytes
    for py in sorted(glob.glob(os.path.join(HERE, "dtrace", "*.py"))):
        with open(py, "rb") as f:
            files["dtrace/" + os.path.basename(py)] = f.read()
    with tempfile.TemporaryDirectory(prefix="dtrace-wheel-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(jobs()) as pool:
        for name, spec in EXTENSIONS.items():
            so = build_extension(name, spec, root, tmp, pool)
            with open(so, "rb") as f:
                files["dtrace/" + os.path.basename(so)] = f.read()
    files[info + "/METADATA"] = metadata_text().encode()
    files[info + "/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: dtrace_backend\n"
                              "Root-Is-Purelib: false\nTag: %s\n" % wheel_tag()).encode()
    files[info + "/top_level.txt"] = b"dtrace\n"
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append("%s,sha256=%s,%d" % (path, digest, len(data)))
    record.append(info + "/RECORD,,")
    files[info + "/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = "%s-%s-%s.whl" % (dist_name(), version, wheel_tag())
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for path, data in files.items():
            zi = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            zi.external_attr = (0o755 if path.endswith(".so") else 0o644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    """The binding's folder plus the repository's C sources under repo/."""
    root = repo_root()
    base = "%s-%s" % (dist_name(), project()["version"])
    name = base + ".tar.gz"
    skip = ("__pycache__", "tests")

    def keep(info):
        parts = info.name.split("/")
        return None if any(p in skip or p.endswith(".pyc") for p in parts) else info

    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for entry in sorted(os.listdir(HERE)):
            if entry not in skip and entry != "repo":
                t.add(os.path.join(HERE, entry), arcname=base + "/" + entry, filter=keep)
        for d in REPO_FOLDERS:
            t.add(os.path.join(root, d), arcname="%s/repo/%s" % (base, d), filter=keep)
        pkg = metadata_text().encode()
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size = len(pkg)
        t.addfile(info, io.BytesIO(pkg))
    return name
