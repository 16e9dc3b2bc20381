Ray, Ben 0 2; 300; p12 2
Nowak, Łukasz 0 1; 400; p12 1
