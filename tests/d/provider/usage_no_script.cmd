# exit 2
-h
