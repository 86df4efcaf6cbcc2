# exit 1
-x errtags -e -s printf_undefined_jd.d
