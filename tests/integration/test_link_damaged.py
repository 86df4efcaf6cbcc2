"""dtrace -G on damaged objects (issue 16, item 2).

Two objects are built from tests/d/provider: good.o, whose probe sites match
link.d, and stale.o, built with a header made from link_stale.d (one
argument fewer: -G must refuse it, "regenerate the header").  Each is then
damaged in every way the generator below knows: truncated at every size
class, each ELF header field out of range, every section header's offset,
size, name, link, info, entry size and alignment, the notes of
.note.stapsdt (huge or unaligned name and descriptor sizes, strings without
their NUL), the relocations of .note.stapsdt and the symbols.

What must hold for every damaged copy:
  - dtrace exits 0 or 1, within its time (no crash, no hang), and writes
    nothing on stdout;
  - a damaged stale.o is always refused (exit 1): damage must never let a
    stale object past the check; the one line names the object;
  - a refused run leaves nothing behind (no output object, no temporary);
  - the damages listed as fatal (the structure libelf relies on) are
    refused for good.o too, with "failed to process good.o: ".

Environment: DTRACE_BIN (our dtrace).
"""
import os
import shutil
import struct
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PROVIDER = os.path.join(HERE, "..", "d", "provider")
DTRACE = os.environ.get("DTRACE_BIN", "dtrace")

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
SHDR = struct.Struct("<IIQQQQIIQQ")
SHT_NOTE, SHT_SYMTAB, SHT_RELA, SHT_GROUP, SHT_STRTAB = 7, 2, 4, 17, 3
HUGE = [0xFFFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFF]


def sections(img):
    e = EHDR.unpack_from(img, 0)
    shoff, shnum, shstrndx = e[6], e[12], e[13]
    shs = [list(SHDR.unpack_from(img, shoff + i * 64)) for i in range(shnum)]
    stroff = shs[shstrndx][4]
    for s in shs:
        end = img.index(b"\0", stroff + s[0])
        s.append(img[stroff + s[0]:end].decode())
    return shoff, shs


def put(img, off, fmt, value):
    b = bytearray(img)
    struct.pack_into(fmt, b, off, value)
    return bytes(b)


def damages(img):
    """(name, damaged bytes, fatal): fatal damages must be refused even in a
    good object."""
    size = len(img)
    # truncation: every size up to the header's end, then every 8 bytes, and
    # one byte short of the whole
    for n in list(range(0, 65)) + list(range(72, size, 8)) + [size - 1]:
        yield "truncated to %d" % n, img[:n], True
    # the ELF header, field by field (offset, format, bad values)
    fields = [
        ("e_ident[EI_CLASS]", 4, "<B", [0, 1, 3, 255]),
        ("e_ident[EI_DATA]", 5, "<B", [0, 2, 3]),
        ("e_ident[EI_VERSION]", 6, "<B", [0, 2]),
        ("e_machine", 18, "<H", [0, 3, 62 + 1, 0xFFFF]),
        ("e_version", 20, "<I", [0, 2, 0xFFFFFFFF]),
        ("e_shoff", 40, "<Q", [1, size, size - 1, size - 64] + HUGE),
        ("e_ehsize", 52, "<H", [0, 63, 65, 0xFFFF]),
        ("e_shentsize", 58, "<H", [0, 40, 63, 65, 0xFFFF]),
        ("e_shnum", 60, "<H", [1000, 0xFF00, 0xFFFF]),
        ("e_shstrndx", 62, "<H", [1000, 0xFEFF, 0xFFFF]),
    ]
    for name, off, fmt, values in fields:
        for v in values:
            yield "%s=%#x" % (name, v), put(img, off, fmt, v), True
    e = EHDR.unpack_from(img, 0)
    shnum = e[12]
    yield "e_shnum=shnum+1", put(img, 60, "<H", shnum + 1), True
    yield "e_shnum=0 (extended, section 0 size 0)", put(img, 60, "<H", 0), True
    yield "e_shstrndx=shnum", put(img, 62, "<H", shnum), True
    # program headers that an object does not have
    for v in HUGE + [size]:
        b = put(put(put(img, 32, "<Q", v), 56, "<H", 1), 54, "<H", 56)
        yield "e_phoff=%#x e_phnum=1" % v, b, True
    yield "e_phnum=1 e_phentsize=0", put(img, 56, "<H", 1), True
    yield "e_phnum=0xffff (extended, from section 0)", \
        put(put(img, 56, "<H", 0xFFFF), 54, "<H", 56), False
    yield "e_shoff=0", put(img, 40, "<Q", 0), True
    # each section header
    shoff, shs = sections(img)
    stroff_sz = shs[e[13]][5]
    for i, s in enumerate(shs):
        if i == 0:
            continue
        base = shoff + i * 64
        tag = "section %d (%s)" % (i, s[10])
        nobits = s[1] == 8
        for v in [size + 1] + HUGE:
            yield "%s sh_offset=%#x" % (tag, v), put(img, base + 24, "<Q", v), not nobits
        for v in [size - s[4] + 1 if s[4] < size else size + 1] + HUGE:
            yield "%s sh_size=%#x" % (tag, v), put(img, base + 32, "<Q", v), not nobits
        for v in [stroff_sz, 0xFFFFFFFF]:
            yield "%s sh_name=%#x" % (tag, v), put(img, base + 0, "<I", v), True
        yield "%s sh_addralign=3" % tag, put(img, base + 48, "<Q", 3), True
        # no data, yet compressed, far away (fuzz_elf found a crash so)
        b = put(put(put(img, base + 4, "<I", 0), base + 8, "<Q", 0x800), base + 24, "<Q", HUGE[0])
        yield "%s SHT_NULL, SHF_COMPRESSED, offset huge" % tag, b, False
        if s[1] in (SHT_SYMTAB, SHT_RELA, SHT_GROUP):
            for v in [len(shs), 0xFFFFFFFF, 0]:
                yield "%s sh_link=%#x" % (tag, v), put(img, base + 40, "<I", v), True
            for v in [0, 1, s[9] - 1, s[9] + 1] if s[1] != SHT_GROUP else [0, 1, 8]:
                yield "%s sh_entsize=%d" % (tag, v), put(img, base + 56, "<Q", v), True
        if s[1] == SHT_RELA:
            for v in [0, len(shs), 0xFFFFFFFF]:
                yield "%s sh_info=%#x" % (tag, v), put(img, base + 44, "<I", v), True
            for k in range(s[5] // 24):
                at = s[4] + k * 24
                yield "%s rela %d r_offset huge" % (tag, k), \
                    put(img, at, "<Q", 0xFFFFFFFFFFFF), True
                yield "%s rela %d symbol huge" % (tag, k), \
                    put(img, at + 8, "<Q", (0xFFFFFF << 32) | 1), True
        if s[1] == SHT_SYMTAB:
            for k in range(1, s[5] // 24):
                at = s[4] + k * 24
                yield "%s symbol %d st_name huge" % (tag, k), \
                    put(img, at, "<I", 0xFFFFFFF0), True
                yield "%s symbol %d st_shndx out of range" % (tag, k), \
                    put(img, at + 6, "<H", 0xFEF0), True
        if s[1] == SHT_GROUP:
            yield "%s member 0" % tag, put(img, s[4] + 4, "<I", 0), True
            yield "%s member out of range" % tag, put(img, s[4] + 4, "<I", 0xFFFF), True
        if s[1] == SHT_STRTAB and i == e[13]:
            yield "%s last byte not NUL" % tag, put(img, s[4] + s[5] - 1, "<B", 0x41), True
        if s[10] == ".note.stapsdt":
            yield from note_damages(img, s, tag)
            # the last note cut short, or followed by part of a header
            for d in (-1, -4, -13, 4, 8):
                yield "%s sh_size%+d" % (tag, d), put(img, base + 32, "<Q", s[5] + d), True


def note_damages(img, s, tag):
    """The notes of .note.stapsdt: each note's sizes, and its strings."""
    off, end, k = s[4], s[4] + s[5], 0
    while off + 12 <= end:
        namesz, descsz, _ = struct.unpack_from("<III", img, off)
        t = "%s note %d" % (tag, k)
        for v in [0xFFFFFFFF, 0xFFFFFFFD, 0x10000, s[5]]:
            yield "%s namesz=%#x" % (t, v), put(img, off, "<I", v), True
            yield "%s descsz=%#x" % (t, v), put(img, off + 4, "<I", v), True
        # unaligned: the descriptor starts elsewhere, its strings are garbage
        yield "%s namesz=9" % t, put(img, off, "<I", 9), True
        yield "%s descsz=1" % t, put(img, off + 4, "<I", 1), True
        yield "%s descsz=23" % t, put(img, off + 4, "<I", 23), True
        desc = off + 12 + ((namesz + 3) & ~3)
        # the descriptor's strings (provider, name, arguments) run into each other
        b = bytearray(img)
        for j in range(desc + 24, desc + descsz):
            if b[j] == 0:
                b[j] = 0x41
        yield "%s strings without NUL" % t, bytes(b), True
        off = desc + ((descsz + 3) & ~3)
        k += 1


class LinkDamaged(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="link-damaged-")
        for f in ("link.d", "link_stale.d", "link_user.c", "link_good.c"):
            shutil.copy(os.path.join(PROVIDER, f), cls.tmp)
        run = lambda *a: subprocess.run(a, cwd=cls.tmp, check=True)  # noqa: E731
        run(DTRACE, "-h", "-s", "link.d", "-o", "link.h")
        run(DTRACE, "-h", "-s", "link_stale.d", "-o", "link_stale.h")
        run("cc", "-c", "link_good.c", "-o", "good.o")
        run("cc", "-c", "link_user.c", "-o", "stale.o")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def link(self, name, img):
        work = tempfile.mkdtemp(dir=self.tmp)
        try:
            shutil.copy(os.path.join(self.tmp, "link.d"), work)
            with open(os.path.join(work, name), "wb") as f:
                f.write(img)
            p = subprocess.run([DTRACE, "-G", "-s", "link.d", "-o", "out.o", name], cwd=work,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
            left = sorted(set(os.listdir(work)) - {"link.d", name})
            return p.returncode, p.stdout.decode(), p.stderr.decode("utf-8", "replace"), left
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def read(self, name):
        with open(os.path.join(self.tmp, name), "rb") as f:
            return f.read()

    def test_undamaged(self):
        """The two objects as built: one accepted, one refused."""
        rc, out, err, left = self.link("good.o", self.read("good.o"))
        self.assertEqual((rc, err, left), (0, "", ["out.o"]))
        rc, out, err, left = self.link("stale.o", self.read("stale.o"))
        self.assertEqual(rc, 1)
        self.assertIn("regenerate the header", err)
        self.assertEqual(left, [])

    def check_all(self, name, must_refuse_all):
        img = self.read(name)
        failures, n = [], 0
        for what, bad, fatal in damages(img):
            if bad == img:
                continue
            n += 1
            rc, out, err, left = self.link(name, bad)
            lines = err.splitlines()
            problem = None
            if rc not in (0, 1) or out != "":
                problem = "exit %d, stdout %r" % (rc, out)
            elif rc == 1 and (len(lines) != 1 or name not in lines[0] or not
                              lines[0].startswith("dtrace: failed to link script link.d: ")):
                problem = "message %r" % err
            elif rc == 1 and left:
                problem = "left behind %s" % left
            elif rc == 0 and (must_refuse_all or fatal):
                problem = "accepted (exit 0)"
            elif rc == 0 and left != ["out.o"]:
                problem = "exit 0 but wrote %s" % left
            elif (rc == 1 and fatal and not must_refuse_all and
                  not err.startswith("dtrace: failed to link script link.d: failed to process "
                                     "%s: " % name) and "invalid file type" not in err and
                  "incorrect ELF" not in err):
                problem = "refused with another message: %r" % err
            if problem:
                failures.append("%s: %s" % (what, problem))
        self.assertGreater(n, 300)
        self.assertEqual(failures, [], "%d of %d damaged copies of %s:\n%s" %
                         (len(failures), n, name, "\n".join(failures)))

    def test_damaged_stale_object_is_refused(self):
        self.check_all("stale.o", True)

    def test_damaged_good_object(self):
        self.check_all("good.o", False)


if __name__ == "__main__":
    unittest.main()
