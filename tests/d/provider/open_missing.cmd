# exit 1
-h -s no_such_provider.d
