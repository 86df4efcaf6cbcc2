/*
 * ks_insn_x86_64.c -- the length of an x86-64 user-mode instruction, and
 * whether the kernel will put a uprobe on it.
 *
 * The pid provider needs both: a probe at an offset must sit on an
 * instruction boundary, a return probe goes on each ret of a function,
 * and one instruction the kernel refuses fails a whole uprobe_multi link
 * (ENOTSUPP), so such functions are left out before attaching.
 *
 * The decoder knows the encoding, not the meaning: legacy prefixes, REX,
 * VEX (c4, c5), EVEX (62), the one-byte map and the 0f, 0f 38 and 0f 3a
 * maps, ModRM, SIB, displacement and immediate.  tests/unit/ks/test_insn.c
 * compares its boundaries with objdump's over every function of libc and
 * ld.so.
 */
#include <string.h>

#include "ks.h"

/* Bit i of a 256-bit row table: a 16-bit row per line, low bit first. */
#define ROW(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, ba, bb, bc, bd, be, bf)                  \
	(uint16_t)((b0 << 0) | (b1 << 1) | (b2 << 2) | (b3 << 3) | (b4 << 4) | (b5 << 5) |   \
		   (b6 << 6) | (b7 << 7) | (b8 << 8) | (b9 << 9) | (ba << 10) | (bb << 11) | \
		   (bc << 12) | (bd << 13) | (be << 14) | (bf << 15))

static bool bit(const uint16_t *t, uint8_t op)
{
	return (t[op >> 4] >> (op & 15)) & 1;
}

/* One-byte opcodes that take a ModRM byte (64-bit mode). */
static const uint16_t modrm1[16] = {
	ROW(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0), /* 00 */
	ROW(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0), /* 10 */
	ROW(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0), /* 20 */
	ROW(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0), /* 30 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 40 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 50 */
	ROW(0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0), /* 60 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 70 */
	ROW(1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 80 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 90 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* a0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* b0 */
	ROW(1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0), /* c0 */
	ROW(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1), /* d0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* e0 */
	ROW(0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1), /* f0 */
};

/* One-byte opcodes that do not exist in 64-bit mode (prefixes are handled before). */
static const uint16_t bad1[16] = {
	ROW(0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0), /* 00 */
	ROW(0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1), /* 10 */
	ROW(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1), /* 20 */
	ROW(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1), /* 30 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 40 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 50 */
	ROW(1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 60 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 70 */
	ROW(0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 80 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0), /* 90 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* a0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* b0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0), /* c0 */
	ROW(0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* d0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0), /* e0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* f0 */
};

/* 0f xx opcodes that take a ModRM byte. */
static const uint16_t modrm2[16] = {
	ROW(1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1), /* 00 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 10 */
	ROW(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1), /* 20 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 30 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 40 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 50 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 60 */
	ROW(1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1), /* 70 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 80 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 90 */
	ROW(0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1), /* a0 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* b0 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0), /* c0 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* d0 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* e0 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* f0 */
};

/* 0f xx opcodes that do not exist (0f 38 and 0f 3a are escapes, handled before). */
static const uint16_t bad2[16] = {
	ROW(0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0), /* 00 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 10 */
	ROW(0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0), /* 20 */
	ROW(0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1), /* 30 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 40 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 50 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 60 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0), /* 70 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 80 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* 90 */
	ROW(0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0), /* a0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* b0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* c0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* d0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* e0 */
	ROW(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), /* f0 */
};

/*
 * The kernel's good_insns_64 (arch/x86/kernel/uprobes.c, Linux 6.18): the
 * first opcode byte (after prefixes, REX, VEX) of an instruction a uprobe
 * may sit on.  0f is good, so every two- and three-byte opcode is.
 */
static const uint16_t good64[16] = {
	ROW(1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1), /* 00 */
	ROW(1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0), /* 10 */
	ROW(1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0), /* 20 */
	ROW(1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0), /* 30 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 40 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 50 */
	ROW(0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0), /* 60 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 70 */
	ROW(1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* 80 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1), /* 90 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* a0 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* b0 */
	ROW(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0), /* c0 */
	ROW(1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1), /* d0 */
	ROW(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0), /* e0 */
	ROW(1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1), /* f0 */
};

/* The size of a z-sized operand (immediate or relative): 2 with 66 (unless REX.W), else 4. */
static int zsize(const ks_insn_t *in)
{
	return in->in_opsize && !(in->in_rex & 8) ? 2 : 4;
}

/* One-byte map: the immediate's size after ModRM, or -1 for an opcode that does not exist. */
static int imm1(const ks_insn_t *in)
{
	uint8_t op = in->in_op, reg = (in->in_modrm >> 3) & 7;

	if (op < 0x40) {
		switch (op & 7) {
		case 4: return 1;
		case 5: return zsize(in);
		default: return 0;
		}
	}
	if (op >= 0x70 && op <= 0x7f)
		return 1;
	if (op >= 0xb0 && op <= 0xb7)
		return 1;
	if (op >= 0xb8 && op <= 0xbf)
		return (in->in_rex & 8) ? 8 : zsize(in);
	if (op >= 0xa0 && op <= 0xa3) /* moffs: an address */
		return in->in_addrsize ? 4 : 8;
	switch (op) {
	case 0x68:
	case 0x69:
	case 0x81:
	case 0xa9:
	case 0xc7:
	case 0xe8:
	case 0xe9: return zsize(in);
	case 0x6a:
	case 0x6b:
	case 0x80:
	case 0x83:
	case 0xa8:
	case 0xc0:
	case 0xc1:
	case 0xc6:
	case 0xcd:
	case 0xe0:
	case 0xe1:
	case 0xe2:
	case 0xe3:
	case 0xe4:
	case 0xe5:
	case 0xe6:
	case 0xe7:
	case 0xeb: return 1;
	case 0xc2:
	case 0xca: return 2;
	case 0xc8: return 3;
	case 0xf6: return reg < 2 ? 1 : 0;
	case 0xf7: return reg < 2 ? zsize(in) : 0;
	}
	return 0;
}

/* The 0f map (VEX/EVEX map 1 as well): the immediate's size. */
static int imm2(const ks_insn_t *in)
{
	uint8_t op = in->in_op;

	if (op >= 0x80 && op <= 0x8f)
		return in->in_vex ? 0 : zsize(in);
	switch (op) {
	case 0x70:
	case 0x71:
	case 0x72:
	case 0x73:
	case 0xc2:
	case 0xc4:
	case 0xc5:
	case 0xc6: return 1;
	case 0xa4:
	case 0xac:
	case 0xba:
	case 0x0f: /* 3DNow!: its opcode comes after the operands */ return in->in_vex ? 0 : 1;
	case 0x78: /* 66 0f 78 /0 ib ib: extrq; f2 0f 78: insertq */
		return (!in->in_vex && (in->in_opsize || in->in_rep == 0xf2)) ? 2 : 0;
	}
	return 0;
}

/* ModRM, SIB and displacement at p[*i]: 0, or -1 when the bytes end first. */
static int modrm(ks_insn_t *in, const uint8_t *p, size_t n, size_t *i)
{
	uint8_t mod, rm;

	if (*i >= n)
		return -1;
	in->in_modrm = p[(*i)++];
	in->in_has_modrm = true;
	mod = in->in_modrm >> 6;
	rm = in->in_modrm & 7;
	if (mod == 3)
		return 0;
	if (rm == 4) {
		uint8_t sib;

		if (*i >= n)
			return -1;
		sib = p[(*i)++];
		if (mod == 0 && (sib & 7) == 5)
			*i += 4;
	} else if (mod == 0 && rm == 5) {
		*i += 4;
		in->in_riprel = true;
	}
	if (mod == 1)
		*i += 1;
	else if (mod == 2)
		*i += 4;
	return *i <= n ? 0 : -1;
}

int ks_insn_decode(const uint8_t *p, size_t n, ks_insn_t *in)
{
	size_t i = 0;
	int imm = 0;

	memset(in, 0, sizeof(*in));
	if (n > 15)
		n = 15;
	for (;;) {
		if (i >= n)
			return -1;
		switch (p[i]) {
		case 0x26:
		case 0x2e:
		case 0x36:
		case 0x3e:
		case 0x64:
		case 0x65:
		case 0xf0:
		case 0xf2:
		case 0xf3:
		case 0x66:
		case 0x67:
			if (p[i] == 0x66)
				in->in_opsize = true;
			else if (p[i] == 0x67)
				in->in_addrsize = true;
			else if (p[i] == 0xf2 || p[i] == 0xf3)
				in->in_rep = p[i];
			if (in->in_npfx < sizeof(in->in_pfx))
				in->in_pfx[in->in_npfx++] = p[i];
			in->in_rex = 0; /* a REX before a legacy prefix is ignored */
			i++;
			continue;
		}
		if ((p[i] & 0xf0) == 0x40) {
			in->in_rex = p[i++];
			continue;
		}
		break;
	}

	in->in_map = 0;
	if (p[i] == 0xc5 || p[i] == 0xc4 || p[i] == 0x62) {
		/* In 64-bit mode these are always VEX or EVEX; a REX before them is invalid. */
		size_t len = p[i] == 0xc5 ? 2 : p[i] == 0xc4 ? 3 : 4;

		if (in->in_rex != 0 || in->in_opsize || in->in_rep != 0 || i + len >= n)
			return -1;
		in->in_vex = p[i];
		if (p[i] == 0xc5) {
			in->in_map = 1;
		} else {
			in->in_map = p[i + 1] & (p[i] == 0x62 ? 0x07 : 0x1f);
			if (p[i] == 0x62 && (p[i + 2] & 0x04) == 0)
				return -1; /* EVEX's fixed bit */
			if (in->in_map == 0 || in->in_map > (p[i] == 0x62 ? 6 : 3) ||
			    (p[i] == 0x62 && in->in_map == 4))
				return -1;
		}
		i += len;
		in->in_op = p[i++];
		if (in->in_map == 1 && in->in_op == 0x77 && in->in_vex == 0xc5) {
			/* vzeroupper, vzeroall: no ModRM */
		} else if (in->in_map == 1 && in->in_op == 0x77 && in->in_vex == 0xc4) {
		} else if (modrm(in, p, n, &i) < 0) {
			return -1;
		}
		if (in->in_map == 3)
			imm = 1;
		else if (in->in_map == 1)
			imm = imm2(in);
		goto done;
	}

	in->in_op = p[i++];
	if (in->in_op == 0x0f) {
		if (i >= n)
			return -1;
		in->in_op = p[i++];
		in->in_map = 1;
		if (in->in_op == 0x38 || in->in_op == 0x3a) {
			if (i >= n)
				return -1;
			in->in_map = in->in_op == 0x38 ? 2 : 3;
			in->in_op = p[i++];
			if (modrm(in, p, n, &i) < 0)
				return -1;
			imm = in->in_map == 3 ? 1 : 0;
			goto done;
		}
		if (bit(bad2, in->in_op))
			return -1;
		if (bit(modrm2, in->in_op) && modrm(in, p, n, &i) < 0)
			return -1;
		imm = imm2(in);
		goto done;
	}
	if (bit(bad1, in->in_op))
		return -1;
	if (bit(modrm1, in->in_op) && modrm(in, p, n, &i) < 0)
		return -1;
	imm = imm1(in);
done:
	in->in_imm_off = (uint8_t)i;
	in->in_imm_len = (uint8_t)imm;
	i += (size_t)imm;
	if (i > n)
		return -1;
	in->in_len = (uint8_t)i;
	return (int)i;
}

int ks_insn_len(const uint8_t *p, size_t n)
{
	ks_insn_t in;

	return ks_insn_decode(p, n, &in);
}

bool ks_uprobe_ok(const ks_insn_t *in)
{
	uint8_t op = in->in_map == 0 || in->in_vex ? in->in_op : 0x0f;

	/* is_prefix_bad(): es, cs, ss, ds and lock */
	for (int k = 0; k < in->in_npfx; k++) {
		switch (in->in_pfx[k]) {
		case 0x26:
		case 0x2e:
		case 0x36:
		case 0x3e:
		case 0xf0: return false;
		}
	}
	/* insn_masking_exception(): mov to ss (8e /2); pop ss (17) is not good below */
	if (in->in_map == 0 && !in->in_vex && in->in_op == 0x8e && ((in->in_modrm >> 3) & 7) == 2)
		return false;
	if (!bit(good64, op))
		return false;
	/* branch_setup_xol_ops(): a jmp, call or jcc with a 66 prefix */
	if (in->in_opsize && !in->in_vex &&
	    ((in->in_map == 0 && (in->in_op == 0xe8 || in->in_op == 0xe9 || in->in_op == 0xeb ||
				  (in->in_op >= 0x70 && in->in_op <= 0x7f))) ||
	     (in->in_map == 1 && in->in_op >= 0x80 && in->in_op <= 0x8f))) {
		/* a nop of x86_nops[] with 66 passes before the check; none of them is a branch */
		return false;
	}
	return true;
}
