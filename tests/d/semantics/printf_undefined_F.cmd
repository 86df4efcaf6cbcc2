# exit 1
-x errtags -e -s printf_undefined_F.d
