# exit 1
-x errtags -e -n BEGIN{printf("%.*.*d",1,2,3);}
