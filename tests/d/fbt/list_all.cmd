# a bare dtrace -l lists the other providers and says nothing of fbt
# (whose 112,000 probes only a description naming fbt makes)
# exit 0
-l
