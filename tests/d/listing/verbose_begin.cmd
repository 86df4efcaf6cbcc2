# dtrace -l -v: illumos' print_probe_info block.  dtrace:::BEGIN's
# attributes are dtrace_provider_attr's provider and name components (the
# empty module and function do not count), its arguments: none
# exit 0
-l -v -n dtrace:::BEGIN
