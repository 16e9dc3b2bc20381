Berg, Ann van der 0 2; 390
Solar, Cesar Del 0 1; 420
