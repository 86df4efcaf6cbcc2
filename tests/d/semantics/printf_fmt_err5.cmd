# exit 1
-x errtags -e -n BEGIN{printf("x%",1,2,3);}
