# exit 1
-x errtags -e -n BEGIN{printf("%1$d",1,2,3);}
