# exit 1
-x encoding=latin1 -e -n "BEGIN { exit(0); }"
