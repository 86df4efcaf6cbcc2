/*
 * The verifier walks a probe's program along its fall-throughs first and
 * keeps each conditional jump's target pending: more than 8192 and it
 * refuses the program when it loads (BPF_COMPLEXITY_LIMIT_JMP_SEQ).  dtrace
 * -e counts them for the clauses of one probe: a quantize() update has ten
 * (its entry's lookup, the bucket's search), a clause one more; the ninth
 * clause crosses 8,100 and is refused here, at its place.
 */
tick-1s
{
	@q0 = quantize(0); @q0 = quantize(1); @q0 = quantize(2); @q0 = quantize(3); @q0 = quantize(4); @q0 = quantize(5); @q0 = quantize(6); @q0 = quantize(7); @q0 = quantize(8); @q0 = quantize(9); @q0 = quantize(10); @q0 = quantize(11); @q0 = quantize(12);
	@q0 = quantize(13); @q0 = quantize(14); @q0 = quantize(15); @q0 = quantize(16); @q0 = quantize(17); @q0 = quantize(18); @q0 = quantize(19); @q0 = quantize(20); @q0 = quantize(21); @q0 = quantize(22); @q0 = quantize(23); @q0 = quantize(24); @q0 = quantize(25);
	@q0 = quantize(26); @q0 = quantize(27); @q0 = quantize(28); @q0 = quantize(29); @q0 = quantize(30); @q0 = quantize(31); @q0 = quantize(32); @q0 = quantize(33); @q0 = quantize(34); @q0 = quantize(35); @q0 = quantize(36); @q0 = quantize(37); @q0 = quantize(38);
	@q0 = quantize(39); @q0 = quantize(40); @q0 = quantize(41); @q0 = quantize(42); @q0 = quantize(43); @q0 = quantize(44); @q0 = quantize(45); @q0 = quantize(46); @q0 = quantize(47); @q0 = quantize(48); @q0 = quantize(49); @q0 = quantize(50); @q0 = quantize(51);
	@q0 = quantize(52); @q0 = quantize(53); @q0 = quantize(54); @q0 = quantize(55); @q0 = quantize(56); @q0 = quantize(57); @q0 = quantize(58); @q0 = quantize(59); @q0 = quantize(60); @q0 = quantize(61); @q0 = quantize(62); @q0 = quantize(63); @q0 = quantize(64);
	@q0 = quantize(65); @q0 = quantize(66); @q0 = quantize(67); @q0 = quantize(68); @q0 = quantize(69); @q0 = quantize(70); @q0 = quantize(71); @q0 = quantize(72); @q0 = quantize(73); @q0 = quantize(74); @q0 = quantize(75); @q0 = quantize(76); @q0 = quantize(77);
	@q0 = quantize(78); @q0 = quantize(79); @q0 = quantize(80); @q0 = quantize(81); @q0 = quantize(82); @q0 = quantize(83); @q0 = quantize(84); @q0 = quantize(85); @q0 = quantize(86); @q0 = quantize(87); @q0 = quantize(88); @q0 = quantize(89); @q0 = quantize(90);
}
tick-1s
{
	@q1 = quantize(0); @q1 = quantize(1); @q1 = quantize(2); @q1 = quantize(3); @q1 = quantize(4); @q1 = quantize(5); @q1 = quantize(6); @q1 = quantize(7); @q1 = quantize(8); @q1 = quantize(9); @q1 = quantize(10); @q1 = quantize(11); @q1 = quantize(12);
	@q1 = quantize(13); @q1 = quantize(14); @q1 = quantize(15); @q1 = quantize(16); @q1 = quantize(17); @q1 = quantize(18); @q1 = quantize(19); @q1 = quantize(20); @q1 = quantize(21); @q1 = quantize(22); @q1 = quantize(23); @q1 = quantize(24); @q1 = quantize(25);
	@q1 = quantize(26); @q1 = quantize(27); @q1 = quantize(28); @q1 = quantize(29); @q1 = quantize(30); @q1 = quantize(31); @q1 = quantize(32); @q1 = quantize(33); @q1 = quantize(34); @q1 = quantize(35); @q1 = quantize(36); @q1 = quantize(37); @q1 = quantize(38);
	@q1 = quantize(39); @q1 = quantize(40); @q1 = quantize(41); @q1 = quantize(42); @q1 = quantize(43); @q1 = quantize(44); @q1 = quantize(45); @q1 = quantize(46); @q1 = quantize(47); @q1 = quantize(48); @q1 = quantize(49); @q1 = quantize(50); @q1 = quantize(51);
	@q1 = quantize(52); @q1 = quantize(53); @q1 = quantize(54); @q1 = quantize(55); @q1 = quantize(56); @q1 = quantize(57); @q1 = quantize(58); @q1 = quantize(59); @q1 = quantize(60); @q1 = quantize(61); @q1 = quantize(62); @q1 = quantize(63); @q1 = quantize(64);
	@q1 = quantize(65); @q1 = quantize(66); @q1 = quantize(67); @q1 = quantize(68); @q1 = quantize(69); @q1 = quantize(70); @q1 = quantize(71); @q1 = quantize(72); @q1 = quantize(73); @q1 = quantize(74); @q1 = quantize(75); @q1 = quantize(76); @q1 = quantize(77);
	@q1 = quantize(78); @q1 = quantize(79); @q1 = quantize(80); @q1 = quantize(81); @q1 = quantize(82); @q1 = quantize(83); @q1 = quantize(84); @q1 = quantize(85); @q1 = quantize(86); @q1 = quantize(87); @q1 = quantize(88); @q1 = quantize(89); @q1 = quantize(90);
}
tick-1s
{
	@q2 = quantize(0); @q2 = quantize(1); @q2 = quantize(2); @q2 = quantize(3); @q2 = quantize(4); @q2 = quantize(5); @q2 = quantize(6); @q2 = quantize(7); @q2 = quantize(8); @q2 = quantize(9); @q2 = quantize(10); @q2 = quantize(11); @q2 = quantize(12);
	@q2 = quantize(13); @q2 = quantize(14); @q2 = quantize(15); @q2 = quantize(16); @q2 = quantize(17); @q2 = quantize(18); @q2 = quantize(19); @q2 = quantize(20); @q2 = quantize(21); @q2 = quantize(22); @q2 = quantize(23); @q2 = quantize(24); @q2 = quantize(25);
	@q2 = quantize(26); @q2 = quantize(27); @q2 = quantize(28); @q2 = quantize(29); @q2 = quantize(30); @q2 = quantize(31); @q2 = quantize(32); @q2 = quantize(33); @q2 = quantize(34); @q2 = quantize(35); @q2 = quantize(36); @q2 = quantize(37); @q2 = quantize(38);
	@q2 = quantize(39); @q2 = quantize(40); @q2 = quantize(41); @q2 = quantize(42); @q2 = quantize(43); @q2 = quantize(44); @q2 = quantize(45); @q2 = quantize(46); @q2 = quantize(47); @q2 = quantize(48); @q2 = quantize(49); @q2 = quantize(50); @q2 = quantize(51);
	@q2 = quantize(52); @q2 = quantize(53); @q2 = quantize(54); @q2 = quantize(55); @q2 = quantize(56); @q2 = quantize(57); @q2 = quantize(58); @q2 = quantize(59); @q2 = quantize(60); @q2 = quantize(61); @q2 = quantize(62); @q2 = quantize(63); @q2 = quantize(64);
	@q2 = quantize(65); @q2 = quantize(66); @q2 = quantize(67); @q2 = quantize(68); @q2 = quantize(69); @q2 = quantize(70); @q2 = quantize(71); @q2 = quantize(72); @q2 = quantize(73); @q2 = quantize(74); @q2 = quantize(75); @q2 = quantize(76); @q2 = quantize(77);
	@q2 = quantize(78); @q2 = quantize(79); @q2 = quantize(80); @q2 = quantize(81); @q2 = quantize(82); @q2 = quantize(83); @q2 = quantize(84); @q2 = quantize(85); @q2 = quantize(86); @q2 = quantize(87); @q2 = quantize(88); @q2 = quantize(89); @q2 = quantize(90);
}
tick-1s
{
	@q3 = quantize(0); @q3 = quantize(1); @q3 = quantize(2); @q3 = quantize(3); @q3 = quantize(4); @q3 = quantize(5); @q3 = quantize(6); @q3 = quantize(7); @q3 = quantize(8); @q3 = quantize(9); @q3 = quantize(10); @q3 = quantize(11); @q3 = quantize(12);
	@q3 = quantize(13); @q3 = quantize(14); @q3 = quantize(15); @q3 = quantize(16); @q3 = quantize(17); @q3 = quantize(18); @q3 = quantize(19); @q3 = quantize(20); @q3 = quantize(21); @q3 = quantize(22); @q3 = quantize(23); @q3 = quantize(24); @q3 = quantize(25);
	@q3 = quantize(26); @q3 = quantize(27); @q3 = quantize(28); @q3 = quantize(29); @q3 = quantize(30); @q3 = quantize(31); @q3 = quantize(32); @q3 = quantize(33); @q3 = quantize(34); @q3 = quantize(35); @q3 = quantize(36); @q3 = quantize(37); @q3 = quantize(38);
	@q3 = quantize(39); @q3 = quantize(40); @q3 = quantize(41); @q3 = quantize(42); @q3 = quantize(43); @q3 = quantize(44); @q3 = quantize(45); @q3 = quantize(46); @q3 = quantize(47); @q3 = quantize(48); @q3 = quantize(49); @q3 = quantize(50); @q3 = quantize(51);
	@q3 = quantize(52); @q3 = quantize(53); @q3 = quantize(54); @q3 = quantize(55); @q3 = quantize(56); @q3 = quantize(57); @q3 = quantize(58); @q3 = quantize(59); @q3 = quantize(60); @q3 = quantize(61); @q3 = quantize(62); @q3 = quantize(63); @q3 = quantize(64);
	@q3 = quantize(65); @q3 = quantize(66); @q3 = quantize(67); @q3 = quantize(68); @q3 = quantize(69); @q3 = quantize(70); @q3 = quantize(71); @q3 = quantize(72); @q3 = quantize(73); @q3 = quantize(74); @q3 = quantize(75); @q3 = quantize(76); @q3 = quantize(77);
	@q3 = quantize(78); @q3 = quantize(79); @q3 = quantize(80); @q3 = quantize(81); @q3 = quantize(82); @q3 = quantize(83); @q3 = quantize(84); @q3 = quantize(85); @q3 = quantize(86); @q3 = quantize(87); @q3 = quantize(88); @q3 = quantize(89); @q3 = quantize(90);
}
tick-1s
{
	@q4 = quantize(0); @q4 = quantize(1); @q4 = quantize(2); @q4 = quantize(3); @q4 = quantize(4); @q4 = quantize(5); @q4 = quantize(6); @q4 = quantize(7); @q4 = quantize(8); @q4 = quantize(9); @q4 = quantize(10); @q4 = quantize(11); @q4 = quantize(12);
	@q4 = quantize(13); @q4 = quantize(14); @q4 = quantize(15); @q4 = quantize(16); @q4 = quantize(17); @q4 = quantize(18); @q4 = quantize(19); @q4 = quantize(20); @q4 = quantize(21); @q4 = quantize(22); @q4 = quantize(23); @q4 = quantize(24); @q4 = quantize(25);
	@q4 = quantize(26); @q4 = quantize(27); @q4 = quantize(28); @q4 = quantize(29); @q4 = quantize(30); @q4 = quantize(31); @q4 = quantize(32); @q4 = quantize(33); @q4 = quantize(34); @q4 = quantize(35); @q4 = quantize(36); @q4 = quantize(37); @q4 = quantize(38);
	@q4 = quantize(39); @q4 = quantize(40); @q4 = quantize(41); @q4 = quantize(42); @q4 = quantize(43); @q4 = quantize(44); @q4 = quantize(45); @q4 = quantize(46); @q4 = quantize(47); @q4 = quantize(48); @q4 = quantize(49); @q4 = quantize(50); @q4 = quantize(51);
	@q4 = quantize(52); @q4 = quantize(53); @q4 = quantize(54); @q4 = quantize(55); @q4 = quantize(56); @q4 = quantize(57); @q4 = quantize(58); @q4 = quantize(59); @q4 = quantize(60); @q4 = quantize(61); @q4 = quantize(62); @q4 = quantize(63); @q4 = quantize(64);
	@q4 = quantize(65); @q4 = quantize(66); @q4 = quantize(67); @q4 = quantize(68); @q4 = quantize(69); @q4 = quantize(70); @q4 = quantize(71); @q4 = quantize(72); @q4 = quantize(73); @q4 = quantize(74); @q4 = quantize(75); @q4 = quantize(76); @q4 = quantize(77);
	@q4 = quantize(78); @q4 = quantize(79); @q4 = quantize(80); @q4 = quantize(81); @q4 = quantize(82); @q4 = quantize(83); @q4 = quantize(84); @q4 = quantize(85); @q4 = quantize(86); @q4 = quantize(87); @q4 = quantize(88); @q4 = quantize(89); @q4 = quantize(90);
}
tick-1s
{
	@q5 = quantize(0); @q5 = quantize(1); @q5 = quantize(2); @q5 = quantize(3); @q5 = quantize(4); @q5 = quantize(5); @q5 = quantize(6); @q5 = quantize(7); @q5 = quantize(8); @q5 = quantize(9); @q5 = quantize(10); @q5 = quantize(11); @q5 = quantize(12);
	@q5 = quantize(13); @q5 = quantize(14); @q5 = quantize(15); @q5 = quantize(16); @q5 = quantize(17); @q5 = quantize(18); @q5 = quantize(19); @q5 = quantize(20); @q5 = quantize(21); @q5 = quantize(22); @q5 = quantize(23); @q5 = quantize(24); @q5 = quantize(25);
	@q5 = quantize(26); @q5 = quantize(27); @q5 = quantize(28); @q5 = quantize(29); @q5 = quantize(30); @q5 = quantize(31); @q5 = quantize(32); @q5 = quantize(33); @q5 = quantize(34); @q5 = quantize(35); @q5 = quantize(36); @q5 = quantize(37); @q5 = quantize(38);
	@q5 = quantize(39); @q5 = quantize(40); @q5 = quantize(41); @q5 = quantize(42); @q5 = quantize(43); @q5 = quantize(44); @q5 = quantize(45); @q5 = quantize(46); @q5 = quantize(47); @q5 = quantize(48); @q5 = quantize(49); @q5 = quantize(50); @q5 = quantize(51);
	@q5 = quantize(52); @q5 = quantize(53); @q5 = quantize(54); @q5 = quantize(55); @q5 = quantize(56); @q5 = quantize(57); @q5 = quantize(58); @q5 = quantize(59); @q5 = quantize(60); @q5 = quantize(61); @q5 = quantize(62); @q5 = quantize(63); @q5 = quantize(64);
	@q5 = quantize(65); @q5 = quantize(66); @q5 = quantize(67); @q5 = quantize(68); @q5 = quantize(69); @q5 = quantize(70); @q5 = quantize(71); @q5 = quantize(72); @q5 = quantize(73); @q5 = quantize(74); @q5 = quantize(75); @q5 = quantize(76); @q5 = quantize(77);
	@q5 = quantize(78); @q5 = quantize(79); @q5 = quantize(80); @q5 = quantize(81); @q5 = quantize(82); @q5 = quantize(83); @q5 = quantize(84); @q5 = quantize(85); @q5 = quantize(86); @q5 = quantize(87); @q5 = quantize(88); @q5 = quantize(89); @q5 = quantize(90);
}
tick-1s
{
	@q6 = quantize(0); @q6 = quantize(1); @q6 = quantize(2); @q6 = quantize(3); @q6 = quantize(4); @q6 = quantize(5); @q6 = quantize(6); @q6 = quantize(7); @q6 = quantize(8); @q6 = quantize(9); @q6 = quantize(10); @q6 = quantize(11); @q6 = quantize(12);
	@q6 = quantize(13); @q6 = quantize(14); @q6 = quantize(15); @q6 = quantize(16); @q6 = quantize(17); @q6 = quantize(18); @q6 = quantize(19); @q6 = quantize(20); @q6 = quantize(21); @q6 = quantize(22); @q6 = quantize(23); @q6 = quantize(24); @q6 = quantize(25);
	@q6 = quantize(26); @q6 = quantize(27); @q6 = quantize(28); @q6 = quantize(29); @q6 = quantize(30); @q6 = quantize(31); @q6 = quantize(32); @q6 = quantize(33); @q6 = quantize(34); @q6 = quantize(35); @q6 = quantize(36); @q6 = quantize(37); @q6 = quantize(38);
	@q6 = quantize(39); @q6 = quantize(40); @q6 = quantize(41); @q6 = quantize(42); @q6 = quantize(43); @q6 = quantize(44); @q6 = quantize(45); @q6 = quantize(46); @q6 = quantize(47); @q6 = quantize(48); @q6 = quantize(49); @q6 = quantize(50); @q6 = quantize(51);
	@q6 = quantize(52); @q6 = quantize(53); @q6 = quantize(54); @q6 = quantize(55); @q6 = quantize(56); @q6 = quantize(57); @q6 = quantize(58); @q6 = quantize(59); @q6 = quantize(60); @q6 = quantize(61); @q6 = quantize(62); @q6 = quantize(63); @q6 = quantize(64);
	@q6 = quantize(65); @q6 = quantize(66); @q6 = quantize(67); @q6 = quantize(68); @q6 = quantize(69); @q6 = quantize(70); @q6 = quantize(71); @q6 = quantize(72); @q6 = quantize(73); @q6 = quantize(74); @q6 = quantize(75); @q6 = quantize(76); @q6 = quantize(77);
	@q6 = quantize(78); @q6 = quantize(79); @q6 = quantize(80); @q6 = quantize(81); @q6 = quantize(82); @q6 = quantize(83); @q6 = quantize(84); @q6 = quantize(85); @q6 = quantize(86); @q6 = quantize(87); @q6 = quantize(88); @q6 = quantize(89); @q6 = quantize(90);
}
tick-1s
{
	@q7 = quantize(0); @q7 = quantize(1); @q7 = quantize(2); @q7 = quantize(3); @q7 = quantize(4); @q7 = quantize(5); @q7 = quantize(6); @q7 = quantize(7); @q7 = quantize(8); @q7 = quantize(9); @q7 = quantize(10); @q7 = quantize(11); @q7 = quantize(12);
	@q7 = quantize(13); @q7 = quantize(14); @q7 = quantize(15); @q7 = quantize(16); @q7 = quantize(17); @q7 = quantize(18); @q7 = quantize(19); @q7 = quantize(20); @q7 = quantize(21); @q7 = quantize(22); @q7 = quantize(23); @q7 = quantize(24); @q7 = quantize(25);
	@q7 = quantize(26); @q7 = quantize(27); @q7 = quantize(28); @q7 = quantize(29); @q7 = quantize(30); @q7 = quantize(31); @q7 = quantize(32); @q7 = quantize(33); @q7 = quantize(34); @q7 = quantize(35); @q7 = quantize(36); @q7 = quantize(37); @q7 = quantize(38);
	@q7 = quantize(39); @q7 = quantize(40); @q7 = quantize(41); @q7 = quantize(42); @q7 = quantize(43); @q7 = quantize(44); @q7 = quantize(45); @q7 = quantize(46); @q7 = quantize(47); @q7 = quantize(48); @q7 = quantize(49); @q7 = quantize(50); @q7 = quantize(51);
	@q7 = quantize(52); @q7 = quantize(53); @q7 = quantize(54); @q7 = quantize(55); @q7 = quantize(56); @q7 = quantize(57); @q7 = quantize(58); @q7 = quantize(59); @q7 = quantize(60); @q7 = quantize(61); @q7 = quantize(62); @q7 = quantize(63); @q7 = quantize(64);
	@q7 = quantize(65); @q7 = quantize(66); @q7 = quantize(67); @q7 = quantize(68); @q7 = quantize(69); @q7 = quantize(70); @q7 = quantize(71); @q7 = quantize(72); @q7 = quantize(73); @q7 = quantize(74); @q7 = quantize(75); @q7 = quantize(76); @q7 = quantize(77);
	@q7 = quantize(78); @q7 = quantize(79); @q7 = quantize(80); @q7 = quantize(81); @q7 = quantize(82); @q7 = quantize(83); @q7 = quantize(84); @q7 = quantize(85); @q7 = quantize(86); @q7 = quantize(87); @q7 = quantize(88); @q7 = quantize(89); @q7 = quantize(90);
}
tick-1s
{
	@q8 = quantize(0); @q8 = quantize(1); @q8 = quantize(2); @q8 = quantize(3); @q8 = quantize(4); @q8 = quantize(5); @q8 = quantize(6); @q8 = quantize(7); @q8 = quantize(8); @q8 = quantize(9); @q8 = quantize(10); @q8 = quantize(11); @q8 = quantize(12);
	@q8 = quantize(13); @q8 = quantize(14); @q8 = quantize(15); @q8 = quantize(16); @q8 = quantize(17); @q8 = quantize(18); @q8 = quantize(19); @q8 = quantize(20); @q8 = quantize(21); @q8 = quantize(22); @q8 = quantize(23); @q8 = quantize(24); @q8 = quantize(25);
	@q8 = quantize(26); @q8 = quantize(27); @q8 = quantize(28); @q8 = quantize(29); @q8 = quantize(30); @q8 = quantize(31); @q8 = quantize(32); @q8 = quantize(33); @q8 = quantize(34); @q8 = quantize(35); @q8 = quantize(36); @q8 = quantize(37); @q8 = quantize(38);
	@q8 = quantize(39); @q8 = quantize(40); @q8 = quantize(41); @q8 = quantize(42); @q8 = quantize(43); @q8 = quantize(44); @q8 = quantize(45); @q8 = quantize(46); @q8 = quantize(47); @q8 = quantize(48); @q8 = quantize(49); @q8 = quantize(50); @q8 = quantize(51);
	@q8 = quantize(52); @q8 = quantize(53); @q8 = quantize(54); @q8 = quantize(55); @q8 = quantize(56); @q8 = quantize(57); @q8 = quantize(58); @q8 = quantize(59); @q8 = quantize(60); @q8 = quantize(61); @q8 = quantize(62); @q8 = quantize(63); @q8 = quantize(64);
	@q8 = quantize(65); @q8 = quantize(66); @q8 = quantize(67); @q8 = quantize(68); @q8 = quantize(69); @q8 = quantize(70); @q8 = quantize(71); @q8 = quantize(72); @q8 = quantize(73); @q8 = quantize(74); @q8 = quantize(75); @q8 = quantize(76); @q8 = quantize(77);
	@q8 = quantize(78); @q8 = quantize(79); @q8 = quantize(80); @q8 = quantize(81); @q8 = quantize(82); @q8 = quantize(83); @q8 = quantize(84); @q8 = quantize(85); @q8 = quantize(86); @q8 = quantize(87); @q8 = quantize(88); @q8 = quantize(89); @q8 = quantize(90);
}
