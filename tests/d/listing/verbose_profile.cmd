# a profile probe: illumos' profile_attr
# exit 0
-l -v -n profile:::profile-97 -n tick-1
