# exit 1
-x errtags -e -n BEGIN{printf("%hq",1,2,3);}
