# -v with several probes: a block after each
# exit 0
-lv -n dtrace:::E*
