# without the D library (sched.d), curcpu, chip and lgrp are the kernel's
# variables, refused saying why
# exit 1
-xnolibs -n BEGIN{trace(curcpu->cpu_id);}
