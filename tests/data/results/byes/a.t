Lee, Ann 0 2 3; 400 377
Ray, Ben 0 1 0; 400 50
Oh, Cyd 0 4 1; 390 350
Fox, Dee 0 3 0; 420 50
Ng, Eve 0 0 0; 50 50
