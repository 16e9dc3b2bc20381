Ray, Ben 0 2; 345
Ångström, Zoë 0 1; 431
