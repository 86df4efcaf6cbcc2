# exit 1
-x errtags -e -n BEGIN{printf("%.2147483648s",1,2,3);}
