van der Berg, Ann 1720 2; 390
Del Solar, Cesar 1850 1; 420
