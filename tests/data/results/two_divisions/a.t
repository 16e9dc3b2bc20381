Lee, Ann 0 2; 410
Ray, Ben 0 1; 380
