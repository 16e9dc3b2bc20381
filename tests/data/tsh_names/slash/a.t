Ann/Lee 0 2; 400; p12 1
Ray, Ben 0 1; 300; p12 2
