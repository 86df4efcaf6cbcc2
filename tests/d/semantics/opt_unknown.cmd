# exit 1
-x nosuchoption -n BEGIN
