# exit 0
-x errtags -e -n BEGIN{printf("%2147483647d%.2147483647s|%#+--+##0-d",1,"a",1);}
