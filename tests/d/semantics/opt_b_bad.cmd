# exit 1
-b 12q -n BEGIN
