provider crlf {
	probe a(int);
};
  #pragma D attributes Evolving/Evolving/Common provider crlf args
