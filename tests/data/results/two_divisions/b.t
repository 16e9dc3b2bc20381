Oh, Cyd 0 0; -50
Fox, Dee 0 0; 50
