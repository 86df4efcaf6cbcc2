# exit 1
-x errtags -e -n BEGIN{printf("%99999999999d",1,2,3);}
