in\
t x = 1\
2; // comment \
continued comment
/* block
   comment */ y <: 0 :> <% %> %:%: a...b .. .5e+3f 0x1p-2 1.e 12ul 'a' '\x41' "s\t\"q\"" 
a+++++b a-->b x<<=y>>=z
